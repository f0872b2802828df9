package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/testrun"
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
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if *jsonOut && jsonInto != "" {
		return m.argsError(fs, "Invalid output format", "The -json and -json-into arguments are mutually exclusive.")
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	cfg, ds := m.loadCheckedConfig()
	if !ds.HasErrors() {
		_, more := encryptionOf(cfg)
		ds = ds.Append(more)
	}
	if !ds.HasErrors() {
		ds = ds.Append(m.checkProviders(cfg))
	}
	cwd := ""
	if !ds.HasErrors() {
		var more diag.Diagnostics
		cwd, more = m.workingDir()
		ds = ds.Append(more)
	}
	if !ds.HasErrors() {
		set := provider.NewSet(m.providerFactories())
		ds = ds.Append(planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{Cwd: cwd}))
		if !*noTests {
			ds = ds.Append(m.validateTestFiles(cfg, set, testDir, cwd))
		}
		_ = set.Close()
	}
	if *jsonOut || jsonInto != "" {
		b, err := ui.MarshalValidateJSON(ds, m.sources)
		if err != nil {
			fmt.Fprintf(m.Err, "Error: encoding validation result: %s\n", err)
			return 1
		}
		if *jsonOut {
			fmt.Fprintln(m.Out, string(b))
		} else if more := writeJSONInto(jsonInto, b); more.HasErrors() {
			m.showDiagnostics(more)
			return 1
		}
	}
	if !*jsonOut {
		m.showDiagnostics(ds)
		if !ds.HasErrors() {
			fmt.Fprint(m.Out, colorText(m.Color, "\x1b[32m\x1b[1mSuccess!\x1b[0m The configuration is valid.\n", "Success! The configuration is valid.\n"))
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

// validateTestFiles checks the test files in the working directory and
// testDir: their syntax, what their runs refer to (testrun.Validate), and
// the local modules their runs execute, validated as the configuration is.
func (m *Meta) validateTestFiles(cfg *config.Module, set *provider.Set, testDir, cwd string) diag.Diagnostics {
	files, ds := config.LoadTestFiles(".", testDir)
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	// Each module is loaded, and its problems reported, once.
	loadOnce := m.testModuleLoader()
	type loaded struct {
		mod *config.Module
		bad bool
	}
	cache := map[string]loaded{}
	load := func(f *config.TestFile, run *config.TestRun) (*config.Module, diag.Diagnostics) {
		key := run.Module.Source + "@" + run.Module.Version
		if l, ok := cache[key]; ok {
			if l.bad {
				return nil, nil
			}
			return l.mod, nil
		}
		mod, ds := loadOnce(f, run)
		cache[key] = loaded{mod: mod, bad: ds.HasErrors()}
		if mod != nil {
			for name, src := range mod.Sources {
				m.sources[name] = src
			}
		}
		return mod, ds
	}
	validated := map[string]bool{}
	for _, f := range files {
		m.sources[f.Path] = f.Source
		ds = ds.Append(testrun.Validate(f, cfg, load))
		for _, run := range f.Runs {
			if run.Module == nil || !config.IsLocalSource(run.Module.Source) || validated[run.Module.Source] {
				continue
			}
			validated[run.Module.Source] = true
			mod, more := load(f, run)
			if more.HasErrors() || mod == nil || cache[run.Module.Source+"@"+run.Module.Version].bad {
				continue
			}
			ds = ds.Append(planner.Validate(context.Background(), mod, set, planner.ValidateOptions{Cwd: cwd}))
		}
	}
	return ds
}
