package command

import (
	"context"
	"fmt"
	"maps"

	"github.com/rig-iac/rig/internal/ui"
)

func runValidate(m *Meta, args []string) int {
	fs := m.flagSet("validate")
	jsonOut := fs.Bool("json", false, "Print the result in a machine-readable JSON format.")
	var jsonInto string
	addJSONIntoFlag(fs, &jsonInto)
	noTests := fs.Bool("no-tests", false, "Do not validate the test files (*.tftest.hcl and the others rig test runs).")
	var testDir string
	addTestDirFlag(fs, &testDir)
	fs.BoolVar(&m.queryFiles, "query", false, "Validate the query files (*.tfquery.hcl) too: their list, provider, variable and locals blocks.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if *jsonOut && jsonInto != "" {
		return m.argsError(fs, "Invalid output format", "The -json and -json-into arguments are mutually exclusive.")
	}
	if fs.NArg() > 1 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument.")
	}
	if fs.NArg() == 1 {
		// As OpenTofu: the configuration of another directory, validated
		// with the working directory's modules and providers.
		m.configDir = fs.Arg(0)
	}
	cfg, ds := m.loadCheckedConfig()
	if !ds.HasErrors() {
		files, more := m.dir().Validate(context.Background(), cfg, !*noTests, testDir)
		ds = ds.Append(more)
		if m.sources == nil {
			m.sources = map[string][]byte{}
		}
		maps.Copy(m.sources, files)
	}
	// As OpenTofu: after the validation's own diagnostics, whatever they are.
	ds = ds.Append(m.dir().DevOverridesWarning())
	if *jsonOut || jsonInto != "" {
		b, err := ui.ValidateDocument(ds, m.sources)
		if err != nil {
			fmt.Fprintf(m.Err, "Error: encoding validation result: %s\n", err)
			return 1
		}
		if *jsonOut {
			fmt.Fprintln(m.Out, string(b))
		} else if more := ui.WriteJSONInto(jsonInto, b); more.HasErrors() {
			m.showDiagnostics(more)
			return 1
		}
	}
	if !*jsonOut {
		m.showDiagnostics(ds)
		switch {
		case len(ds) == 0:
			fmt.Fprint(m.Out, colorText(m.Color, "\x1b[32m\x1b[1mSuccess!\x1b[0m The configuration is valid.\n", "Success! The configuration is valid.\n"))
		case !ds.HasErrors():
			// As OpenTofu words it, wrapped as the diagnostics are.
			fmt.Fprint(m.Out, colorText(m.Color, "\x1b[32m\x1b[1mSuccess!\x1b[0m The configuration is valid, but there were some validation warnings\nas shown above.\n",
				"Success! The configuration is valid, but there were some validation warnings\nas shown above.\n"))
		}
	}
	if ds.HasErrors() {
		return 1
	}
	return 0
}

func colorText(color bool, colored, plain string) string {
	if color {
		return colored
	}
	return plain
}
