package command

import (
	"slices"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/workdir"
)

// commandsWithoutWorkspace are the commands that never read the selected
// workspace, or check TF_WORKSPACE themselves (workspace new and select):
// an invalid TF_WORKSPACE does not stop them.
var commandsWithoutWorkspace = []string{"version", "fmt", "login", "logout", "metadata functions", "workspace new", "workspace select"}

// runCommand runs c, named name, with args, once the environment's
// workspace is known to be usable: a TF_WORKSPACE that is not a
// workspace name stops every command that would use it, before it reads
// anything, as in OpenTofu.
func (m *Meta) runCommand(name string, c command, args []string) int {
	if !slices.Contains(commandsWithoutWorkspace, name) && !slices.ContainsFunc(args, cliargs.IsHelp) {
		if ds := workdir.CheckWorkspaceEnv(); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	return c.run(m, args)
}
