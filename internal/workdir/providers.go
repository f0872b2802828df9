package workdir

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// providersDir is where `rig init` installs provider packages, as
// Terraform does: .terraform/providers, or providers in TF_DATA_DIR.
func (d *Dir) providersDir() string { return d.DataPath("providers") }

// pluginPathFile records the -plugin-dir directories of the last init.
func (d *Dir) pluginPathFile() string { return d.DataPath("plugin_path") }

// RequiredProviders returns every provider module cfg itself needs (its
// children left out): those in required_providers, those its resources,
// data sources, actions and import blocks imply or name, and those of its provider
// blocks, sorted.
func RequiredProviders(cfg *config.Module) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	for _, rp := range cfg.Terraform.RequiredProviders {
		seen[rp.Provider] = true
	}
	for _, r := range cfg.Resources() {
		name, _ := cfg.ProviderLocalName(r)
		seen[cfg.ProviderFor(name)] = true
	}
	for _, pb := range cfg.ProviderConfigs {
		seen[cfg.ProviderFor(pb.Name)] = true
	}
	for _, a := range cfg.Actions {
		seen[cfg.ProviderFor(config.ActionProviderName(a))] = true
	}
	for _, imp := range cfg.Imports {
		// The provider an import block generating configuration uses.
		name := imp.To.ImpliedProviderType()
		if imp.Provider != nil {
			name = imp.Provider.Name
		}
		seen[cfg.ProviderFor(name)] = true
	}
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return out
}

// TreeRequiredProviders returns every provider the modules of the tree
// under cfg need (see RequiredProviders), sorted, each once: what init
// installs and what the other commands expect to be installed. A provider
// only a child module requires or implies counts as much as the root
// module's own.
func TreeRequiredProviders(cfg *config.Module) []addrs.Provider {
	var out []addrs.Provider
	for _, m := range cfg.AllModules() {
		out = append(out, RequiredProviders(m)...)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return slices.Compact(out)
}

// TreeRequirements returns the plugin providers every module of the tree
// under cfg requires, sorted, each with all the version constraints the
// modules give it (merged in the order of AllModules, each once), as
// OpenTofu merges them: init selects a version that satisfies them all.
func TreeRequirements(cfg *config.Module) ([]getproviders.Requirement, diag.Diagnostics) {
	var ds diag.Diagnostics
	var reqs []getproviders.Requirement
	at := map[addrs.Provider]int{}
	for _, m := range cfg.AllModules() {
		more, mds := ProviderRequirements(m)
		ds = ds.Append(mds)
		for _, r := range more {
			if i, ok := at[r.Provider]; ok {
				reqs[i].Constraints = reqs[i].Constraints.Merge(r.Constraints)
				continue
			}
			at[r.Provider] = len(reqs)
			reqs = append(reqs, r)
		}
	}
	slices.SortFunc(reqs, func(a, b getproviders.Requirement) int { return a.Provider.Compare(b.Provider) })
	return reqs, ds
}

// ProviderRequirements returns the plugin providers module cfg itself needs
// (built-in ones excluded, its children left out) with their version
// constraints, from required_providers and the deprecated version argument
// of provider blocks.
func ProviderRequirements(cfg *config.Module) ([]getproviders.Requirement, diag.Diagnostics) {
	var ds diag.Diagnostics
	cons := map[addrs.Provider]getproviders.Constraints{}
	add := func(p addrs.Provider, s string, rng *config.RequiredProvider) {
		cs, err := getproviders.ParseConstraints(s)
		if err != nil {
			d := diag.Errorf("Invalid version constraint", "Provider %s: %s.", p.ForDisplay(), err)
			if rng != nil {
				d = diag.At(rng.DeclRange, "Invalid version constraint", err.Error()+".")
			}
			ds = ds.Append(d)
			return
		}
		cons[p] = cons[p].Merge(cs)
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Terraform.RequiredProviders)) {
		rp := cfg.Terraform.RequiredProviders[name]
		add(rp.Provider, rp.Version, rp)
	}
	for _, key := range slices.Sorted(maps.Keys(cfg.ProviderConfigs)) {
		pb := cfg.ProviderConfigs[key]
		add(cfg.ProviderFor(pb.Name), pb.Version, nil)
	}
	var out []getproviders.Requirement
	for _, p := range RequiredProviders(cfg) {
		if p.IsBuiltIn() {
			continue
		}
		out = append(out, getproviders.Requirement{Provider: p, Constraints: cons[p]})
	}
	return out, ds
}

// builtinConstraints returns the built-in providers that a module of the
// tree under cfg gives a version constraint (in required_providers or a
// provider block's version), which OpenTofu's init refuses: a built-in
// provider is the version of the rig that runs it.
func builtinConstraints(cfg *config.Module) map[addrs.Provider]bool {
	out := map[addrs.Provider]bool{}
	for _, m := range cfg.AllModules() {
		for _, rp := range m.Terraform.RequiredProviders {
			if rp.Provider.IsBuiltIn() && strings.TrimSpace(rp.Version) != "" {
				out[rp.Provider] = true
			}
		}
		for _, pb := range m.ProviderConfigs {
			if p := m.ProviderFor(pb.Name); p.IsBuiltIn() && strings.TrimSpace(pb.Version) != "" {
				out[p] = true
			}
		}
	}
	return out
}

// pluginProviders is what the working directory offers besides the
// built-in providers: the packages `rig init` installed and locked, the
// CLI configuration's dev_overrides and TF_REATTACH_PROVIDERS. It is loaded
// once per command.
type pluginProviders struct {
	factories provider.Factories
	locks     *getproviders.Locks
	// hosts places the providers whose source address names no registry
	// host where the lock file (and, for init, the state) records them.
	hosts getproviders.RegistryHosts
	// overridden are providers that bypass installation (dev_overrides or
	// TF_REATTACH_PROVIDERS).
	overridden map[addrs.Provider]bool
	devWarning diag.Diagnostics
	diags      diag.Diagnostics
}

// loadPluginProviders reads the CLI configuration, the lock file and the
// installed packages (verifying each against the lock's hashes).
func (d *Dir) loadPluginProviders() *pluginProviders {
	if d.plugins != nil {
		return d.plugins
	}
	pp := &pluginProviders{factories: provider.Factories{}, overridden: map[addrs.Provider]bool{}}
	d.plugins = pp
	cli := d.opts.CLIConfig
	pp.diags = pp.diags.Append(d.opts.CLIConfigProblems)
	locks, ds := d.ReadLockFile()
	pp.diags = pp.diags.Append(ds)
	pp.locks = locks
	pp.hosts = getproviders.NewRegistryHosts(locks, d.stateProviders)
	installed, ds := getproviders.VerifyInstalled(d.providersDir(), locks, getproviders.CurrentPlatform)
	pp.diags = pp.diags.Append(ds)
	for p, inst := range installed {
		pp.factories[p] = plugin.Factory(plugin.Meta{Path: inst.Executable, Provider: p, Version: inst.Version.String()})
	}
	if len(cli.DevOverrides) > 0 {
		var lines []string
		for named, dir := range cli.DevOverrides {
			p := pp.hosts.Provider(named)
			exe, ok := getproviders.FindExecutable(dir, p)
			if !ok {
				pp.diags = pp.diags.Append(diag.Errorf("Invalid provider development override",
					"The CLI configuration %s overrides provider %s with the directory %s, which has no executable named terraform-provider-%s*.", cli.Path, p.ForDisplay(), dir, p.Type))
				continue
			}
			pp.factories[p] = plugin.Factory(plugin.Meta{Path: exe, Provider: p})
			pp.overridden[p] = true
			lines = append(lines, fmt.Sprintf(" - %s in %s", p.ForDisplay(), dir))
		}
		sort.Strings(lines)
		pp.devWarning = diag.Diagnostics{{Severity: diag.Warning, Summary: "Provider development overrides are in effect",
			Detail: "The following provider development overrides are set in the CLI configuration:\n" + strings.Join(lines, "\n") + "\n\n" + devOverridesRuntimeNote}}
	}
	reattach, err := plugin.ParseReattachProviders(os.Getenv(plugin.ReattachEnv))
	if err != nil {
		pp.diags = pp.diags.Append(diag.Errorf("Invalid "+plugin.ReattachEnv, "%s", err))
	}
	for named := range reattach {
		p := pp.hosts.Provider(named)
		pp.factories[p] = plugin.Factory(plugin.Meta{Provider: named})
		pp.overridden[p] = true
	}
	for named, f := range d.opts.TestProviders {
		p := pp.hosts.Provider(named)
		pp.factories[p] = f
		pp.overridden[p] = true
	}
	return pp
}

// CheckProviders reports what keeps the configuration's providers from
// starting, before any of them is needed: a provider required but not
// selected in the lock file, a locked package not installed or changed
// since. The dev_overrides warning is DevOverridesWarning's.
func (d *Dir) CheckProviders(cfg *config.Module) diag.Diagnostics {
	pp := d.loadPluginProviders()
	reqs, ds := TreeRequirements(cfg)
	// Only problems with the providers this configuration uses count.
	needed := map[addrs.Provider]bool{}
	for _, req := range reqs {
		needed[req.Provider] = !pp.overridden[req.Provider]
	}
	for _, dg := range pp.diags {
		if dg.Summary == "Required plugins are not installed" && !anyNeededNotStarted(needed, pp.factories) {
			continue
		}
		if dg.Summary == "Required plugins are not installed" && d.opts.InAutomation {
			// A wrapper runs init itself: no command to suggest.
			dg.Detail = strings.Replace(dg.Detail, "To install the plugins required for this configuration, run:\n  rig init",
				"You must install the required plugins before running rig operations.", 1)
		}
		ds = ds.Append(dg)
	}
	if ds.HasErrors() {
		return ds
	}
	var missing []string
	for _, req := range reqs {
		if pp.overridden[req.Provider] {
			continue
		}
		lock := pp.locks.Get(req.Provider)
		switch {
		case lock == nil:
			missing = append(missing, fmt.Sprintf("  - provider %s: required by this configuration but no version is selected", req.Provider))
		case !req.Constraints.Allows(lock.Version):
			missing = append(missing, fmt.Sprintf("  - provider %s: locked version selection %s doesn't match the updated version constraints %q", req.Provider, lock.Version, req.Constraints))
		}
	}
	if len(missing) > 0 {
		suggestion := "To update the locked dependency selections to match a changed configuration, run:\n  rig init -upgrade"
		if pp.locks == nil || len(pp.locks.Providers) == 0 {
			// No lock file yet (or an empty one): init makes the first selections.
			suggestion = "To make the initial dependency selections that will initialize the dependency lock file, run:\n  rig init"
		}
		return ds.Append(diag.Errorf("Inconsistent dependency lock file",
			"The following dependency selections recorded in the lock file are inconsistent with the current configuration:\n%s\n\n%s", strings.Join(missing, "\n"), suggestion))
	}
	return ds
}

func anyNeededNotStarted(needed map[addrs.Provider]bool, f provider.Factories) bool {
	for p, n := range needed {
		if _, ok := f[p]; n && !ok {
			return true
		}
	}
	return false
}

// ReadPluginPath returns the -plugin-dir directories the last init recorded.
func (d *Dir) ReadPluginPath() []string {
	b, err := os.ReadFile(d.pluginPathFile())
	if err != nil {
		return nil
	}
	var dirs []string
	if json.Unmarshal(b, &dirs) != nil {
		return nil
	}
	return dirs
}

// writePluginPath records -plugin-dir directories for later inits; an
// empty list removes the record.
func (d *Dir) writePluginPath(dirs []string) error {
	path := d.pluginPathFile()
	if len(dirs) == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(dirs, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// ProviderFactories returns every provider rig can start: the built-in
// terraform provider, the plugins `rig init` installed and locked (each
// checked against the lock's hashes), dev_overrides and
// TF_REATTACH_PROVIDERS (CheckProviders reports what is missing). With the
// log on, each start is logged.
func (d *Dir) ProviderFactories() provider.Factories {
	f := provider.Factories{}
	for p, pf := range d.loadPluginProviders().factories {
		f[p] = pf
	}
	f[addrs.NewBuiltInProvider("terraform")] = func() (provider.Interface, error) {
		if d.opts.NewBuiltinTerraform != nil {
			return d.opts.NewBuiltinTerraform(d.ReadRemoteState), nil
		}
		return &builtin.Terraform{ReadRemoteState: d.ReadRemoteState}, nil
	}
	return d.loggedFactories(f)
}

// loggedFactories wraps each factory so that the log records each provider
// process started: which provider, how long it took, or why it failed.
func (d *Dir) loggedFactories(f provider.Factories) provider.Factories {
	log := d.opts.Log
	if !log.Enabled(corelog.Info) {
		return f
	}
	out := make(provider.Factories, len(f))
	for addr, factory := range f {
		out[addr] = func() (provider.Interface, error) {
			start := time.Now()
			log.Debug("starting provider", corelog.String("provider", addr.String()))
			p, err := factory()
			if err != nil {
				log.Error("provider failed to start", corelog.String("provider", addr.String()), corelog.Err(err))
				return p, err
			}
			log.Info("provider started", corelog.String("provider", addr.String()), corelog.Duration("elapsed", time.Since(start)))
			return p, nil
		}
	}
	return out
}
