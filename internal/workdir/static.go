package workdir

import (
	"maps"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/planner"
)

// givenVariables are the root variables a command collected (Variables),
// once: loading the configuration may need them for its static
// expressions before the operation asks for them.
type givenVariables struct {
	values map[string]planner.InputValue
	files  map[string][]byte
}

// StaticEvaluator evaluates the configuration's static expressions
// (module sources and versions, backend and encryption settings, const
// variables) with the root variables of Options.Vars, the variable files
// and TF_VAR_ variables, asked for with Options.Ask — or those of a saved
// plan (UseSavedPlanVariables). One evaluator serves the Dir.
func (d *Dir) StaticEvaluator() *eval.Static {
	if d.static != nil {
		return d.static
	}
	env, _ := d.Env()
	var first diag.Diagnostics
	asked := false
	root := func(root *config.Module, v *config.Variable) (cty.Value, bool, diag.Diagnostics) {
		var ds diag.Diagnostics
		if !asked {
			asked = true
			var args []VarArg
			if d.opts.Vars != nil {
				args = *d.opts.Vars
			}
			_, _, first = d.Variables(root, args, d.opts.Ask)
			ds = first
		}
		iv, ok := d.given.values[v.Name]
		return iv.Value, ok, ds
	}
	d.static = &eval.Static{Root: root, Env: env}
	return d.static
}

// UseSavedPlanVariables makes the root variables a saved plan records
// those of the configuration's static expressions and of the operation:
// a saved plan is applied (and shown) with the values it was made with.
func (d *Dir) UseSavedPlanVariables(vals map[string]cty.Value) {
	out := make(map[string]planner.InputValue, len(vals))
	for name, v := range vals {
		out[name] = planner.InputValue{Value: v, SourceType: "the saved plan"}
	}
	d.given = &givenVariables{values: out, files: map[string][]byte{}}
}

// UseSavedPlanFileVariables takes the root variables of the saved plan at
// path (UseSavedPlanVariables), when it can be read without the
// configuration (it is not encrypted), so that loading the configuration
// evaluates module sources and the backend with them rather than asking
// for them.
func (d *Dir) UseSavedPlanFileVariables(path string) {
	if pf, err := ReadPlan(path, nil); err == nil {
		d.UseSavedPlanVariables(pf.Plan.Variables)
	}
}

// cachedVariables returns what an earlier Variables call collected.
func (d *Dir) cachedVariables() (map[string]planner.InputValue, map[string][]byte, bool) {
	if d.given == nil {
		return nil, nil, false
	}
	return maps.Clone(d.given.values), maps.Clone(d.given.files), true
}
