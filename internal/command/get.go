package command

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/getproviders"
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
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	if !m.startStream(stream) {
		return 1
	}
	defer m.endStream()
	root, ds := config.LoadDir(".")
	m.sources = maps.Clone(root.Sources)
	if !ds.HasErrors() {
		var more diag.Diagnostics
		root, more = withTestModuleCalls(root, testDir)
		ds = ds.Append(more)
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	creds, more := getproviders.LoadCredentials(os.Environ())
	ds = ds.Append(more)
	inst := getmodules.Installer{
		ModulesDir:          filepath.ToSlash(m.dataPath("modules")),
		Upgrade:             *update,
		Out:                 m.Out,
		HTTPClient:          moduleHTTPClient,
		Credentials:         creds,
		DefaultRegistryHost: m.registryHosts().DefaultHost(),
	}
	_, more = inst.Install(context.Background(), root)
	ds = ds.Append(more)
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// moduleEntry is one module call of `modules -json`, as Terraform 1.10+
// prints it: the call's name, its source address and the version
// installed ("" for a source without versions).
type moduleEntry struct {
	Key     string `json:"key"`
	Source  string `json:"source"`
	Version string `json:"version"`
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
	manifest, err := getmodules.ReadManifest(m.dataPath("modules"))
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to read module manifest", "%s", err)))
		return 1
	}
	entries := moduleEntries(cfg, manifest)
	if *jsonOut {
		list := make([]moduleEntry, 0, len(entries))
		for _, e := range entries {
			list = append(list, e.moduleEntry)
		}
		b, _ := json.Marshal(struct {
			FormatVersion string        `json:"format_version"`
			Modules       []moduleEntry `json:"modules"`
		}{"1.0", list})
		fmt.Fprintln(m.Out, string(b))
		return 0
	}
	if len(entries) == 0 {
		fmt.Fprintln(m.Out, "No modules found in configuration.")
		return 0
	}
	fmt.Fprint(m.Out, "\nModules declared by configuration:\n.\n")
	for _, e := range entries {
		var prefix strings.Builder
		for d := 0; d < e.depth; d++ {
			if e.ancestorsLast[d] {
				prefix.WriteString("    ")
			} else {
				prefix.WriteString("│   ")
			}
		}
		branch := "├── "
		if e.last {
			branch = "└── "
		}
		line := fmt.Sprintf("%q[%s]", e.Key, e.Source)
		if e.Version != "" {
			line += " " + e.Version
			if e.constraint != "" && e.constraint != e.Version {
				line += " (" + e.constraint + ")"
			}
		}
		fmt.Fprintf(m.Out, "%s%s%s\n", prefix.String(), branch, line)
	}
	fmt.Fprintln(m.Out)
	return 0
}

// treeEntry is a module call where the tree shows it.
type treeEntry struct {
	moduleEntry
	constraint    string
	depth         int
	last          bool   // the last call of its module
	ancestorsLast []bool // for each enclosing level, whether that call was last
}

// moduleEntries lists the calls of cfg and of the modules below, depth
// first in name order, with the source and version the manifest records
// for each installed one.
func moduleEntries(cfg *config.Module, manifest getmodules.Manifest) []treeEntry {
	var out []treeEntry
	var walk func(mod *config.Module, key string, depth int, ancestorsLast []bool)
	walk = func(mod *config.Module, key string, depth int, ancestorsLast []bool) {
		names := sortedMapKeys(mod.ModuleCalls)
		for i, name := range names {
			call := mod.ModuleCalls[name]
			full := name
			if key != "" {
				full = key + "." + name
			}
			e := treeEntry{moduleEntry: moduleEntry{Key: name, Source: call.Source}, constraint: call.Version,
				depth: depth, last: i == len(names)-1, ancestorsLast: ancestorsLast}
			if rec, ok := manifest.Record(full); ok {
				e.Source, e.Version = rec.Source, rec.Version
			}
			out = append(out, e)
			if child := mod.Children[name]; child != nil {
				walk(child, full, depth+1, append(append([]bool(nil), ancestorsLast...), e.last))
			}
		}
	}
	walk(cfg, "", 0, nil)
	return out
}
