package command

import (
	"errors"
	"flag"

	"github.com/rig-iac/rig/internal/workdir"
)

// varFlags defines -var and -var-file on fs, appending to vars, and
// remembers vars so that loading the configuration can evaluate what
// refers to root variables before the command plans (module sources and
// versions, backend and encryption settings, const variables;
// workdir.Options.Vars).
func (m *Meta) varFlags(fs *flag.FlagSet, vars *[]workdir.VarArg) {
	addVarFlags(fs, vars)
	m.varArgs = vars
}

// errNoInput is staticAsk's answer when input is disabled.
var errNoInput = errors.New("input is disabled")

// staticAsk asks for a required root variable the configuration's static
// expressions need, when input is allowed (workdir.Options.Ask).
func (m *Meta) staticAsk(name, description string) (string, error) {
	if !m.inputAllowed() {
		return "", errNoInput
	}
	return m.askVariable(name, description)
}

// useSavedPlanVariables takes the root variables of the saved plan at
// path, when it can be read without the configuration (it is not
// encrypted), so that loading the configuration evaluates module sources
// and the backend with them rather than asking for them.
func (m *Meta) useSavedPlanVariables(path string) {
	if pf, err := workdir.ReadPlan(path, nil); err == nil {
		m.dir().UseSavedPlanVariables(pf.Plan.Variables)
	}
}
