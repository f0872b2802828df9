package workdir

import (
	"fmt"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
)

// CheckSavedPlanVariables compares the values -var and -var-file (flags)
// give the variables whose values the saved plan p recorded with those
// recorded: the same value is accepted, so that a pipeline may pass the
// variables it planned with again, and another is OpenTofu's "Mismatch
// between input and plan variable value". Ephemeral variables, which the
// plan does not record, are left to EphemeralPlanVariables.
func (d *Dir) CheckSavedPlanVariables(cfg *config.Module, p *plan.Plan, flags []VarArg) diag.Diagnostics {
	if len(flags) == 0 {
		return nil
	}
	// Only the flags: the environment and the .tfvars files are read when
	// planning, and a saved plan keeps what they gave.
	values := map[string]planner.InputValue{}
	ds := parseFlagVariables(cfg, flags, values, map[string][]byte{})
	for _, name := range slices.Sorted(maps.Keys(values)) {
		v := cfg.Variables[name]
		if v == nil {
			ds = ds.Append(diag.Errorf("Value for undeclared variable",
				"%s", fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name.", name)))
			continue
		}
		if slices.Contains(p.EphemeralVariables, name) {
			continue
		}
		given, more := eval.PrepareVariable(v, values[name].Value, v.DeclRange, "var."+name)
		if more.HasErrors() {
			ds = ds.Append(more)
			continue
		}
		recorded, ok := p.Variables[name]
		if !ok {
			recorded, _ = eval.PrepareVariable(v, cty.NilVal, v.DeclRange, "var."+name)
		}
		g, _ := given.UnmarkDeep()
		r, _ := recorded.UnmarkDeep()
		if !g.RawEquals(r) && !g.Equals(r).True() {
			ds = ds.Append(diag.Errorf("Mismatch between input and plan variable value",
				"%s", fmt.Sprintf("Value saved in the plan file for variable %q is different from the one given to the current command.", name)))
		}
	}
	return ds
}
