package command

import (
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/lang"
)

func runMetadataFunctions(m *Meta, args []string) int {
	fs := m.flagSet("metadata functions")
	jsonOut := fs.Bool("json", false, "Print the signatures as JSON; required.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if !*jsonOut {
		return m.argsError(fs, "Invalid arguments", "The `rig metadata functions` command requires the `-json` flag.")
	}
	m.documentOut = true
	if fs.NArg() > 0 {
		// OpenTofu and Terraform ignore them: a warning, and the document.
		m.showDiagnostics(diag.Diagnostics{warningf("Unexpected argument", "The %s command takes no arguments; %q and what follows it are ignored.", fs.Name(), fs.Arg(0))})
	}
	sigs, err := jsonformat.NewFunctionSignatures(lang.Functions("."))
	var b []byte
	if err == nil {
		b, err = json.Marshal(sigs)
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to serialize functions", "%s", err)})
		return 1
	}
	fmt.Fprintln(m.Out, string(b))
	return 0
}
