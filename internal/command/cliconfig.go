package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// cliConfigCache is the CLI configuration of a run, read once.
type cliConfigCache struct {
	cfg    *getproviders.CLIConfig
	ds     diag.Diagnostics
	loaded bool
	// shown says Main has shown ds already.
	shown bool
}

// cliConfig returns the CLI configuration (TF_CLI_CONFIG_FILE, else
// ~/.terraformrc or ~/.tofurc), read once per run, and its problems for the
// caller to show, unless Main showed them already: then only an error
// that stops what needs a valid configuration, when it has errors.
func (m *Meta) cliConfig() (*getproviders.CLIConfig, diag.Diagnostics) {
	c := &m.cli
	if !c.loaded {
		c.cfg, c.ds = getproviders.LoadCLIConfig()
		c.loaded = true
	}
	switch {
	case !c.shown:
		return c.cfg, c.ds
	case c.cfg.Stops(c.ds):
		return c.cfg, diag.Diagnostics{diag.Errorf("Invalid CLI configuration",
			"The CLI configuration %s has the errors shown above; fix them first.", c.cfg.Path)}
	}
	return c.cfg, nil
}

// showCLIConfigProblems reads the CLI configuration and shows its problems
// (a TF_CLI_CONFIG_FILE that names a missing file or a directory, invalid
// settings) before any command runs, as Terraform and OpenTofu do.
func (m *Meta) showCLIConfigProblems() {
	_, ds := m.cliConfig()
	m.cli.shown = true
	if len(ds) == 0 {
		return
	}
	fmt.Fprintln(m.Err, "There are some problems with the CLI configuration:")
	// As OpenTofu: shown before the command's options are read, never in
	// color.
	color := m.Color
	m.Color = false
	m.showDiagnostics(ds)
	m.Color = color
	if ds.HasErrors() {
		// As OpenTofu: the closing sentence comes after the blank line
		// that ends an error of a summary alone (all of OpenTofu's are),
		// and is followed by two.
		if hasDetailedError(ds) {
			fmt.Fprintln(m.Err)
		}
		fmt.Fprint(m.Err, "As a result of the above problems, rig may not behave as intended.\n\n\n")
	}
}

// hasDetailedError reports whether an error of ds has a detail.
func hasDetailedError(ds diag.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity == diag.Error && d.Detail != "" {
			return true
		}
	}
	return false
}
