package command

import (
	"flag"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/planner"
)

// varFlags defines -var and -var-file on fs, appending to vars, and
// remembers vars so that loading the configuration can evaluate what
// refers to root variables before the command plans (module sources and
// versions, backend and encryption settings, const variables).
func (m *Meta) varFlags(fs *flag.FlagSet, vars *[]varFlag) {
	addVarFlags(fs, vars)
	m.varArgs = vars
}

// staticEvaluator evaluates the configuration's static expressions with
// the root variables the command was given (-var and -var-file, the
// variable files, TF_VAR_ variables, asked for when input is allowed),
// collected once per command (collectVariables).
func (m *Meta) staticEvaluator() *eval.Static {
	cwd, _ := m.workingDir()
	var (
		once  sync.Once
		given map[string]planner.InputValue
	)
	root := func(root *config.Module, v *config.Variable) (cty.Value, bool, diag.Diagnostics) {
		var ds diag.Diagnostics
		once.Do(func() {
			var flags []varFlag
			if m.varArgs != nil {
				flags = *m.varArgs
			}
			given, ds = m.collectVariables(root, flags)
		})
		iv, ok := given[v.Name]
		return iv.Value, ok, ds
	}
	return &eval.Static{Root: root, Cwd: cwd, Workspace: m.workspace()}
}

// collectedVariables are the root variables a command collected.
type collectedVariables struct {
	values map[string]planner.InputValue
}

// savedVariables are the root variables a saved plan records, which are
// those of the configuration's static expressions when it is applied.
func savedVariables(vals map[string]cty.Value) *collectedVariables {
	out := make(map[string]planner.InputValue, len(vals))
	for name, v := range vals {
		out[name] = planner.InputValue{Value: v, SourceType: "the saved plan"}
	}
	return &collectedVariables{values: out}
}

// useSavedPlanVariables takes the root variables of the saved plan at
// path, when it can be read without the configuration (it is not
// encrypted), so that loading the configuration evaluates module sources
// and the backend with them rather than asking for them.
func (m *Meta) useSavedPlanVariables(path string) {
	if pf, err := readPlan(path, nil); err == nil {
		m.given = savedVariables(pf.Plan.Variables)
	}
}
