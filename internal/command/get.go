package command

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/jsonformat"
)

// runGet is `rig get`: init's module step alone. It installs the modules
// the configuration calls (reusing those installed, unless -update) and
// writes .terraform/modules/modules.json.
func runGet(m *Meta, args []string) int {
	fs := m.flagSet("get")
	update := fs.Bool("update", false, "Check the modules already installed for newer versions, and install the newest their version constraints allow (git modules are fetched again).")
	var testDir string
	addTestDirFlag(fs, &testDir)
	var stream streamFlags
	addStreamFlags(fs, &stream)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
	}
	if !m.startStream(stream) {
		return 1
	}
	defer m.endStream()
	root, ds := m.dir().LoadRootModule()
	m.sources = maps.Clone(root.Sources)
	if !ds.HasErrors() {
		var more diag.Diagnostics
		root, more = m.dir().WithTestModuleCalls(root, testDir)
		ds = ds.Append(more)
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	inst, more := m.dir().ModuleInstaller(*update, m.Out)
	ds = ds.Append(more)
	_, more = inst.Install(context.Background(), root)
	m.addDiagnosticSources(more)
	ds = ds.Append(more)
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// runModules is `rig modules`: every module call of the configuration,
// as a tree or, with -json, as Terraform's list.
func runModules(m *Meta, args []string) int {
	fs := m.flagSet("modules")
	jsonOut := fs.Bool("json", false, "Print the module calls as JSON, in the format Terraform prints them: format_version and a list of modules, each with its key, source and installed version.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no positional arguments.")
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	manifest, err := getmodules.ReadManifest(m.dir().DataPath("modules"))
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to read module manifest", "%s", err)))
		return 1
	}
	entries := getmodules.Tree(cfg, manifest)
	if *jsonOut {
		list := make([]jsonformat.InstalledModule, 0, len(entries))
		for _, e := range entries {
			list = append(list, jsonformat.InstalledModule{Key: e.Key, Source: e.Source, Version: e.Version})
		}
		b, _ := json.Marshal(jsonformat.InstalledModules{FormatVersion: "1.0", Modules: list})
		fmt.Fprintln(m.Out, string(b))
		return 0
	}
	if len(entries) == 0 {
		fmt.Fprintln(m.Out, "No modules found in configuration.")
		return 0
	}
	getmodules.WriteTree(m.Out, entries)
	return 0
}
