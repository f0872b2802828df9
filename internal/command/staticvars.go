package command

import (
	"errors"
	"flag"

	"github.com/rig-iac/rig/internal/plan/planfile"
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

// readSavedPlan reads the plan saved at path with the root variables it
// records (workdir.Dir.UseSavedPlanFileVariables) and the working
// directory's configuration, which says how the plan is encrypted and
// whose files are the sources of the diagnostics shown after.
func (m *Meta) readSavedPlan(path string) (*planfile.File, error) {
	m.dir().UseSavedPlanFileVariables(path)
	cfg, _ := m.loadConfigQuiet()
	return workdir.ReadPlan(path, cfg)
}
