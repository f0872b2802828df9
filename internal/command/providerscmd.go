package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/workdir"
)

// runProviders prints the providers the configuration requires, as a tree
// of its modules, and those the state refers to, as `terraform providers`
// does.
func runProviders(m *Meta, args []string) int {
	fs := m.flagSet("providers")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
	}
	cfg, ds := m.loadConfig()
	if workdir.IsEmptyConfig(cfg) {
		ds = ds.Append(m.dir().NoConfigurationDiag("providers"))
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprint(m.Out, "\nProviders required by configuration:\n.\n")
	ds = ds.Append(workdir.WriteProviderTree(m.Out, cfg, ""))
	s, more := m.currentState()
	ds = ds.Append(more)
	workdir.WriteStateProviders(m.Out, s)
	fmt.Fprintln(m.Out)
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}
