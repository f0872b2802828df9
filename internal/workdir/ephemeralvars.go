package workdir

import (
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
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
