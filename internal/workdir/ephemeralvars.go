package workdir

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
)

// EphemeralVariables gathers the values of cfg's variables as Variables
// does, but afresh, whatever was collected before: a saved plan's apply
// takes the other variables from the plan, and its ephemeral ones, which
// the plan leaves out, from the command line, files, environment or ask.
func (d *Dir) EphemeralVariables(cfg *config.Module, args []VarArg, ask Asker) (map[string]planner.InputValue, diag.Diagnostics) {
	values, _, ds := d.gatherVariables(cfg, args, ask)
	return values, ds
}

// EphemeralPlanVariables gives a saved plan the values of its ephemeral
// root variables, which the plan file leaves out: from -var and -var-file
// (flags), the .tfvars files and TF_VAR_ variables, as when planning, or
// asked for (ask; nil asks nothing), else their defaults. A required one
// without a value is an error, as in OpenTofu.
func (d *Dir) EphemeralPlanVariables(cfg *config.Module, p *plan.Plan, flags []VarArg, ask Asker) diag.Diagnostics {
	// Only the ephemeral variables are asked for: the plan has the others.
	only := *cfg
	only.Variables = map[string]*config.Variable{}
	for _, name := range p.EphemeralVariables {
		if v := cfg.Variables[name]; v != nil {
			only.Variables[name] = v
		}
	}
	// The flags' values of the other variables are checked against the
	// plan's (CheckSavedPlanVariables).
	given, ds := d.EphemeralVariables(&only, flags, ask)
	if p.Variables == nil {
		p.Variables = map[string]cty.Value{}
	}
	for _, name := range p.EphemeralVariables {
		v := cfg.Variables[name]
		if v == nil {
			continue
		}
		in, ok := given[name]
		if (!ok || in.Value == cty.NilVal) && v.Required() {
			ds = ds.Append(diag.At(v.DeclRange, "No value for required variable",
				fmt.Sprintf("Variable %q is configured as ephemeral. This type of variables need to be given a value during `rig plan` and also during `rig apply`.", name)))
			continue
		}
		val, more := eval.PrepareVariable(v, in.Value, v.DeclRange, "var."+name)
		ds = ds.Append(more)
		p.Variables[name] = val
	}
	return ds
}
