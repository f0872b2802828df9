package command

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/provider"
)

func runInit(m *Meta, args []string) int {
	fs := m.flagSet("init")
	var backendFlags initBackendFlags // -backend-config, -migrate-state, … (migrate.go)
	m.addInitBackendFlags(fs, &backendFlags)
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
		if ds := m.initFromModule(context.Background(), f.fromModule); ds.HasErrors() {
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
	if isEmptyConfig(cfg) {
		// As OpenTofu: nothing to install, and nothing is written.
		m.showDiagnostics(ds)
		fmt.Fprint(m.Out, colorText(m.Color, "\x1b[32m\x1b[1mrig initialized in an empty directory!\x1b[0m\n", "rig initialized in an empty directory!\n"))
		fmt.Fprintln(m.Out, "\nThe directory has no rig configuration files. You may begin working\nwith rig immediately by creating rig configuration files.")
		return 0
	}
	if f.backend {
		fmt.Fprint(m.Out, colorText(m.Color, "\x1b[1mInitializing the backend...\x1b[0m\n", "Initializing the backend...\n"))
		if more := m.initBackend(context.Background(), cfg, &backendFlags); more.HasErrors() {
			m.showDiagnostics(ds.Append(more))
			return 1
		}
	}
	cfg, more := m.placeProvidersFromState(context.Background(), cfg)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[1mInitializing provider plugins...\x1b[0m\n", "\nInitializing provider plugins...\n"))
	if err := os.MkdirAll(m.dataDir(), 0o755); err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to initialize", "Creating %s: %s", m.dataDir(), err)))
		return 1
	}
	ds = ds.Append(m.initProviders(cfg, &f))
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

// moduleHTTPClient is the client init's module installer uses for
// registries and HTTP sources; nil means getmodules' default. Tests point
// it at their loopback servers.
var moduleHTTPClient *http.Client

// initModules is init's module step: it installs the modules the
// configuration calls (registry modules and HTTP sources downloaded, git
// sources cloned, local ones recorded in place; tokens from the CLI
// configuration and TF_TOKEN_… variables) and writes
// .terraform/modules/modules.json as terraform and tofu do.
func (m *Meta) initModules(upgrade bool, testDir string) diag.Diagnostics {
	root, ds := config.LoadDir(".")
	m.sources = maps.Clone(root.Sources)
	if ds.HasErrors() {
		return ds
	}
	root, more := withTestModuleCalls(root, testDir)
	if ds = ds.Append(more); ds.HasErrors() || len(root.ModuleCalls) == 0 {
		return ds
	}
	title := "Initializing modules..."
	if upgrade {
		title = "Upgrading modules..."
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\x1b[1m"+title+"\x1b[0m\n", title+"\n"))
	creds, more := getproviders.LoadCredentials(os.Environ())
	if len(more) > 0 {
		m.showDiagnostics(more) // warnings about the credentials, shown once here
	}
	cli, _ := m.cliConfig() // its problems are shown before the command runs
	inst := getmodules.Installer{
		ModulesDir:          filepath.ToSlash(m.dataPath("modules")),
		RegistryRetries:     cli.RegistryRetries,
		RegistryTimeout:     cli.RegistryTimeout,
		Upgrade:             upgrade,
		Out:                 m.Out,
		HTTPClient:          moduleHTTPClient,
		Credentials:         creds,
		DefaultRegistryHost: m.registryHosts().DefaultHost(),
	}
	_, more = inst.Install(context.Background(), root)
	if !more.HasErrors() {
		fmt.Fprintln(m.Out)
	}
	return ds.Append(more)
}

// initProviders is init's provider step: it checks the built-in providers
// start, installs every plugin provider the modules of the configuration
// require (their version constraints merged) from the
// sources of the CLI configuration (skipping dev_overrides and reattached
// providers) and
// records the selections in the dependency lock file (lockfile.go).
func (m *Meta) initProviders(cfg *config.Module, f *initFlags) diag.Diagnostics {
	ctx := context.Background()
	var ds diag.Diagnostics
	builtins := provider.NewSet(m.providerFactories())
	defer builtins.Close()
	for _, p := range treeRequiredProviders(cfg) {
		if !p.IsBuiltIn() {
			continue
		}
		if _, more := builtins.Schemas(ctx, p); more.HasErrors() {
			ds = ds.Append(more)
			continue
		}
		fmt.Fprintf(m.Out, "- %s is built in to rig\n", p)
	}
	reqs, more := treeRequirements(cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	pp := m.loadPluginProviders()
	ds = ds.Append(pp.devWarning)
	var toInstall []getproviders.Requirement
	for _, req := range reqs {
		if pp.overridden[req.Provider] {
			fmt.Fprintf(m.Out, "- Using %s from the development overrides or %s; skipping installation\n", req.Provider.ForDisplay(), "TF_REATTACH_PROVIDERS")
			continue
		}
		toInstall = append(toInstall, req)
	}

	cli, more := m.cliConfig()
	ds = ds.Append(more)
	pluginDirs := f.pluginDirs
	if len(pluginDirs) > 0 {
		if err := m.writePluginPath(pluginDirs); err != nil {
			return ds.Append(diag.Errorf("Failed to initialize", "Recording -plugin-dir: %s", err))
		}
	} else {
		pluginDirs = m.readPluginPath()
	}
	sources, more := cli.Sources(pluginDirs, cli.Client())
	ds = ds.Append(more)
	inst := &getproviders.Installer{
		Sources:           sources,
		TargetDir:         m.providersDir(),
		CacheDir:          cli.PluginCacheDir,
		CacheMayBreakLock: cli.CacheMayBreakLock,
		Log:               func(s string) { fmt.Fprintln(m.Out, s) },
	}
	old := pp.locks
	locks, more := inst.Install(ctx, toInstall, old, getproviders.InstallOptions{Upgrade: f.upgrade})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(m.recordLocks(old, locks, f.lockfileReadonly))
}
