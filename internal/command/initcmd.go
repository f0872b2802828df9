package command

import (
	"context"
	"fmt"
	"maps"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/workdir"
)

func runInit(m *Meta, args []string) int {
	fs := m.flagSet("init")
	var backendFlags workdir.InitBackendOptions // -backend-config, -migrate-state, … (initflags.go)
	addInitBackendFlags(fs, &backendFlags)
	var f initFlags // -backend, -get, -plugin-dir, -upgrade, -lockfile (initflags.go)
	addInitFlags(fs, &f)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	if f.upgrade && f.lockfileReadonly {
		return m.argsError(fs, "Invalid options", "The -upgrade flag conflicts with -lockfile=readonly.")
	}
	if problem := checkInitAliases(fs); problem != "" {
		return m.argsError(fs, "Invalid init options", problem)
	}
	if !m.startStream(f.stream) {
		return 1
	}
	defer m.endStream()
	if f.fromModule != "" {
		if ds := m.dir().InitFromModule(context.Background(), f.fromModule, m.Out); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	if f.get {
		if ds := m.initModules(f.upgrade, f.testDir); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	cfg, ds := m.loadCheckedConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if workdir.IsEmptyConfig(cfg) {
		// As OpenTofu: nothing to install, and nothing is written.
		m.showDiagnostics(ds)
		fmt.Fprint(m.Out, colorText(m.Color, "\x1b[32m\x1b[1mrig initialized in an empty directory!\x1b[0m\n", "rig initialized in an empty directory!\n"))
		fmt.Fprintln(m.Out, "\nThe directory has no rig configuration files. You may begin working\nwith rig immediately by creating rig configuration files.")
		return 0
	}
	if f.backend {
		fmt.Fprint(m.Out, colorText(m.Color, "\x1b[1mInitializing the backend...\x1b[0m\n", "Initializing the backend...\n"))
		backendFlags.Out, backendFlags.Confirm = m.Out, m.confirm
		if more := m.dir().InitBackend(context.Background(), cfg, &backendFlags); more.HasErrors() {
			m.showDiagnostics(ds.Append(more))
			return 1
		}
	}
	cfg, more := m.dir().PlaceProvidersFromState(context.Background(), cfg)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[1mInitializing provider plugins...\x1b[0m\n", "\nInitializing provider plugins...\n"))
	ds = ds.Append(m.dir().InstallProviders(context.Background(), cfg, workdir.InstallProvidersOptions{
		PluginDirs: f.pluginDirs, Upgrade: f.upgrade, LockfileReadonly: f.lockfileReadonly, Out: m.Out}))
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	m.showDiagnostics(ds)
	fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[32m\x1b[1mrig has been successfully initialized!\x1b[0m\n", "\nrig has been successfully initialized!\n"))
	if !m.inAutomation {
		fmt.Fprintln(m.Out, "\nYou may now begin working with rig. Try running \"rig plan\" to see\nany changes that are required for your infrastructure.")
	}
	return 0
}

// initModules is init's module step: it installs the modules the
// configuration calls (registry modules and HTTP sources downloaded, git
// sources cloned, local ones recorded in place; tokens from the CLI
// configuration and TF_TOKEN_… variables) and writes
// .terraform/modules/modules.json as terraform and tofu do.
func (m *Meta) initModules(upgrade bool, testDir string) diag.Diagnostics {
	root, ds := m.dir().LoadRootModule()
	m.sources = maps.Clone(root.Sources)
	if ds.HasErrors() {
		return ds
	}
	consts := root.SetStatic(nil, "", m.dir().StaticEvaluator()) // the root's const variables
	root, more := m.dir().WithTestModuleCalls(root, testDir)
	if ds = ds.Append(more); ds.HasErrors() || len(root.ModuleCalls) == 0 {
		return consts.Append(ds)
	}
	title := "Initializing modules..."
	if upgrade {
		title = "Upgrading modules..."
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\x1b[1m"+title+"\x1b[0m\n", title+"\n"))
	inst, more := m.dir().ModuleInstaller(upgrade, m.Out)
	if len(more) > 0 {
		m.showDiagnostics(more) // warnings about the credentials, shown once here
	}
	_, more = inst.Install(context.Background(), root)
	m.addDiagnosticSources(more)
	if !more.HasErrors() {
		fmt.Fprintln(m.Out)
	}
	return consts.Append(ds).Append(more)
}
