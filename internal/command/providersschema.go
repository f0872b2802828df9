package command

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// runProvidersSchema prints the schemas of the providers the configuration
// and the state use, in the JSON provider schema format that
// `terraform providers schema -json` prints.
func runProvidersSchema(m *Meta, args []string) int {
	fs := m.flagSet("providers schema")
	var asJSON bool
	fs.BoolVar(&asJSON, "json", false, "Print the schemas as JSON. Required: there is no other format.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = true
	if !asJSON {
		// As OpenTofu words it.
		return m.argsError(fs, "Output only in json is allowed", "The `rig providers schema` command requires the `-json` flag.")
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most zero positional arguments.")
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	ds = ds.Append(m.dir().CheckProviders(cfg))
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	s, more := m.currentState()
	ds = ds.Append(more)
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	out, more := ui.ProviderSchemasJSON(context.Background(), set, workdir.UsedProviders(cfg, s))
	ds = ds.Append(more)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	b, err := json.Marshal(out)
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to marshal provider schemas to json", "%s", err)))
		return 1
	}
	fmt.Fprintln(m.Out, string(b))
	m.showDiagnostics(ds)
	return 0
}
