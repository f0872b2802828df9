package workdir

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/provider"
)

// ModuleInstaller returns the installer of the modules the configuration
// calls into the data directory's modules (init, get, init
// -from-module): registry tokens from the CLI configuration and the
// TF_TOKEN_… variables, the registry retries and timeout the environment
// sets, the registry host the working directory records modules under.
// The diagnostics are warnings about the credentials. upgrade installs the
// newest versions allowed; out receives what it tells people (nil:
// nothing).
func (d *Dir) ModuleInstaller(upgrade bool, out io.Writer) (getmodules.Installer, diag.Diagnostics) {
	creds, ds := getproviders.LoadCredentials(os.Environ())
	inst := getmodules.Installer{
		ModulesDir:          filepath.ToSlash(d.DataPath("modules")),
		Upgrade:             upgrade,
		Out:                 out,
		HTTPClient:          d.opts.ModuleHTTPClient,
		Credentials:         creds,
		DefaultRegistryHost: d.RegistryHosts().DefaultHost(),
		RegistryRetries:     d.opts.CLIConfig.RegistryRetries,
		RegistryTimeout:     d.opts.CLIConfig.RegistryTimeout,
		Static:              d.StaticEvaluator(),
	}
	return inst, ds
}

// LoadRootModule loads the root module alone, without the modules it
// calls: what installing those starts from.
func (d *Dir) LoadRootModule() (*config.Module, diag.Diagnostics) {
	root, ds := versionProblemsFirst(config.LoadDir(d.root))
	if root != nil && !ds.HasErrors() {
		ds = ds.Append(triggerShapes(root))
	}
	return root, ds
}

// InstallProvidersOptions are init's provider options.
type InstallProvidersOptions struct {
	// PluginDirs are the -plugin-dir directories: the only sources of
	// packages, remembered for later inits; none uses those the last init
	// remembered, or the CLI configuration's.
	PluginDirs []string
	// Upgrade selects the newest versions allowed, ignoring the lock file.
	Upgrade bool
	// LockfileReadonly (-lockfile=readonly) checks the lock file, never
	// writing it.
	LockfileReadonly bool
	// Out receives what the step tells people.
	Out io.Writer
	// StateProviders are providers to install, without a version
	// constraint, besides the configuration's: those only the state's
	// objects need (ProvidersOnlyInState).
	StateProviders []addrs.Provider
	// TestRequirements are the providers the test files need besides the
	// configuration's (TestRequirements), their constraints merged with
	// the configuration's.
	TestRequirements []getproviders.Requirement
}

// InstallProviders is init's provider step: it checks the built-in
// providers the configuration requires (refusing a version constraint on
// one, or one rig does not have, as OpenTofu does) and that they start,
// installs every plugin provider the modules of the configuration require
// (their version constraints merged) from the sources of the CLI
// configuration (skipping dev_overrides and reattached providers) and
// records the selections in the dependency lock file (lockfile.go).
func (d *Dir) InstallProviders(ctx context.Context, cfg *config.Module, opts InstallProvidersOptions) diag.Diagnostics {
	// As OpenTofu: the data directory is made by what is put in it (a
	// provider installed, -plugin-dir recorded), not for its own sake.
	out := opts.Out
	var ds diag.Diagnostics
	factories := d.ProviderFactories()
	builtins := provider.NewSet(factories)
	defer builtins.Close()
	constrained := builtinConstraints(cfg)
	for _, p := range TreeRequiredProviders(cfg) {
		if !p.IsBuiltIn() {
			continue
		}
		if _, ok := factories[p]; !ok {
			ds = ds.Append(diag.Errorf("Invalid dependency on built-in provider", "Cannot use %s: this rig release has no built-in provider named %q.", p.ForDisplay(), p.Type))
			continue
		}
		if constrained[p] {
			ds = ds.Append(diag.Errorf("Invalid dependency on built-in provider", "Cannot use %s: built-in providers do not support explicit version constraints.", p.ForDisplay()))
			continue
		}
		if _, more := builtins.Schemas(ctx, p); more.HasErrors() {
			ds = ds.Append(more)
			continue
		}
		fmt.Fprintf(out, "- %s is built in to rig\n", p)
	}
	reqs, more := TreeRequirements(cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	for _, p := range opts.StateProviders {
		reqs = append(reqs, getproviders.Requirement{Provider: p})
	}
	for _, r := range opts.TestRequirements {
		if i := slices.IndexFunc(reqs, func(q getproviders.Requirement) bool { return q.Provider == r.Provider }); i >= 0 {
			reqs[i].Constraints = reqs[i].Constraints.Merge(r.Constraints)
			continue
		}
		reqs = append(reqs, r)
	}
	ds = ds.Append(providerTypeConflicts(reqs))
	pp := d.loadPluginProviders()
	ds = ds.Append(devOverridesInitWarning(pp.devWarning))
	var toInstall []getproviders.Requirement
	for _, req := range reqs {
		if pp.overridden[req.Provider] {
			fmt.Fprintf(out, "- Using %s from the development overrides or %s; skipping installation\n", req.Provider.ForDisplay(), "TF_REATTACH_PROVIDERS")
			continue
		}
		toInstall = append(toInstall, req)
	}

	cli := d.opts.CLIConfig
	ds = ds.Append(d.opts.CLIConfigProblems)
	pluginDirs := opts.PluginDirs
	if len(pluginDirs) > 0 {
		if err := d.writePluginPath(pluginDirs); err != nil {
			return ds.Append(diag.Errorf("Failed to initialize", "Recording -plugin-dir: %s", err))
		}
	} else {
		pluginDirs = d.ReadPluginPath()
	}
	sources, more := cli.Sources(pluginDirs, cli.Client())
	ds = ds.Append(more)
	inst := &getproviders.Installer{
		Sources:           sources,
		TargetDir:         d.providersDir(),
		CacheDir:          cli.PluginCacheDir,
		CacheMayBreakLock: cli.CacheMayBreakLock,
		Log:               func(s string) { fmt.Fprintln(out, s) },
	}
	old := pp.locks
	locks, more := inst.Install(ctx, toInstall, old, getproviders.InstallOptions{Upgrade: opts.Upgrade})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(d.recordLocks(old, locks, opts.LockfileReadonly, inst.LocallyHashed(), out))
}
