package workdir

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/lang"
)

// LoadConfig loads the configuration of the working directory (or of
// Options.ConfigDir) and the modules it calls, installed ones through the
// manifest init wrote; its providers whose source address names no
// registry host are placed under the host the working directory records
// them with (registry.opentofu.org where OpenTofu initialized it; see
// getproviders.RegistryHosts).
func (d *Dir) LoadConfig() (*config.Module, diag.Diagnostics) {
	hosts := d.RegistryHosts()
	dir := d.root
	if d.opts.ConfigDir != "" {
		dir = d.path(d.opts.ConfigDir)
	}
	start := time.Now()
	mod, ds := config.LoadTree(dir, config.TreeOptions{Resolve: d.installedModules(), ProviderHost: hosts.Provider, Static: d.StaticEvaluator(), QueryFiles: d.opts.QueryFiles})
	d.logConfig(mod, ds, time.Since(start))
	return mod, ds
}

// LoadCheckedConfig is LoadConfig for the commands that work with the
// configuration (init, validate, graph and the operations): a configuration
// that loads without errors must also accept the OpenTofu version rig
// stands in for, in every module's required_version, its encryption block
// must be readable, and every provider block's for_each must be one a
// static evaluation can compute (as OpenTofu checks while loading).
func (d *Dir) LoadCheckedConfig() (*config.Module, diag.Diagnostics) {
	cfg, ds := versionProblemsFirst(d.LoadConfig())
	if ds.HasErrors() {
		return cfg, ds
	}
	if cfg != nil {
		ds = ds.Append(cfg.CheckCoreVersion())
		// The encryption block's settings are evaluated statically (they
		// may refer to variables): what they may not refer to is reported
		// here, as OpenTofu reports it while loading.
		if _, more := EncryptionOf(cfg); more.HasErrors() {
			ds = ds.Append(more)
		}
		for _, mod := range cfg.AllModules() {
			for _, key := range slices.Sorted(maps.Keys(mod.ProviderConfigs)) {
				ds = ds.Append(eval.CheckProviderForEach(mod, mod.ProviderConfigs[key]))
			}
			ds = ds.Append(triggerShapes(mod))
		}
	}
	return cfg, ds
}

// versionProblemsFirst returns, in place of the errors of a configuration
// that did not load, those of its version constraints when they fail: as
// in OpenTofu and Terraform, a module written for another version may use
// what this one does not know, so only the version is reported.
func versionProblemsFirst(cfg *config.Module, ds diag.Diagnostics) (*config.Module, diag.Diagnostics) {
	if cfg == nil || !ds.HasErrors() {
		return cfg, ds
	}
	if more := cfg.CheckCoreVersion(); more.HasErrors() {
		return cfg, more
	}
	return cfg, ds
}

// IsEmptyConfig reports whether mod was loaded from a directory without a
// configuration file (.tf, .tf.json, .tofu, .tofu.json). As in OpenTofu,
// init and validate accept such a directory, and so do destroys (of
// whatever the state holds); plan, apply, import and providers refuse it
// (NoConfigurationDiag).
func IsEmptyConfig(mod *config.Module) bool { return mod != nil && len(mod.Sources) == 0 }

// NoConfigurationDiag is the error of a command that needs a configuration
// run in a directory without one: what says which command (the lock
// operation of plan or apply, or the command's name).
func (d *Dir) NoConfigurationDiag(what string) diag.Diagnostic {
	switch what {
	case "OperationTypePlan":
		return diag.Errorf("No configuration files", "Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a rig configuration file (.tf file) and try again.")
	case "OperationTypeApply":
		return diag.Errorf("No configuration files", "Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'rig destroy' instead.")
	case "OperationTypeQuery":
		return diag.Errorf("No configuration files", "Query requires a query configuration to be present. Create a query configuration file (.tfquery.hcl file) and try again.")
	}
	dir, err := filepath.Abs(d.root)
	if err != nil {
		dir = "."
	}
	return diag.Errorf("No configuration files", "The directory %s contains no rig configuration files (.tf, .tf.json, .tofu or .tofu.json).", dir)
}

// Cwd returns path.cwd: the absolute directory rig was started in, before
// any -chdir (Options.StartDir; the configuration is read after it), with
// forward slashes, as OpenTofu gives it.
func (d *Dir) Cwd() (string, diag.Diagnostics) {
	wd, err := d.opts.StartDir, error(nil)
	if wd == "" {
		wd, err = os.Getwd()
	}
	if err == nil {
		wd, err = filepath.Abs(wd)
	}
	if err != nil {
		return "", diag.Diagnostics{diag.Errorf("Failed to get the working directory", "rig could not find the absolute path of its working directory, which path.cwd stands for: %s.", err)}
	}
	return filepath.ToSlash(wd), nil
}

// installedModules resolves the sources of module calls that are not local
// paths through the manifest `rig init` (or terraform/tofu init) wrote in
// .terraform/modules (modules in TF_DATA_DIR).
func (d *Dir) installedModules() config.ModuleDirResolver {
	modulesDir := d.DataPath("modules")
	readManifest := sync.OnceValues(func() (getmodules.Manifest, error) { return getmodules.ReadManifest(modulesDir) })
	return func(key string, call *config.ModuleCall) (string, diag.Diagnostics) {
		manifest, err := readManifest()
		if err != nil {
			return "", diag.Diagnostics{diag.At(call.DeclRange, "Failed to read module manifest", err.Error())}
		}
		rec, ok := manifest.Record(key)
		if !ok {
			return "", diag.Diagnostics{config.NotInstalledDiag(call, key)}
		}
		if src, perr := getmodules.ParseSource(call.Source); perr == nil && !src.Matches(rec.Source) {
			return "", diag.Diagnostics{diag.At(call.SourceRange, "Module source has changed",
				fmt.Sprintf("The source address was changed from %q to %q since this module was installed. Run \"rig init\" to install all modules required by this configuration.", rec.Source, src.String()))}
		}
		dir := d.path(filepath.FromSlash(rec.Dir))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return "", diag.Diagnostics{diag.At(call.DeclRange, "Module not installed",
				fmt.Sprintf("This module's local cache directory %s could not be read. Run \"rig init\" to install all modules required by this configuration.", rec.Dir))}
		}
		if ds := installedVersionAllowed(call, rec); ds.HasErrors() {
			return "", ds
		}
		return dir, nil
	}
}

// installedVersionAllowed reports, as OpenTofu does, a module call whose
// version constraint no longer allows the version init installed (or that
// has one where init installed a module without a version).
func installedVersionAllowed(call *config.ModuleCall, rec getmodules.Record) diag.Diagnostics {
	if strings.TrimSpace(call.Version) == "" {
		return nil
	}
	constraints, err := getproviders.ParseConstraints(call.Version)
	if err != nil {
		return nil // init reports the constraint
	}
	const advice = " Run \"rig init\" to install all modules required by this configuration."
	if rec.Version == "" {
		return diag.Diagnostics{diag.At(call.SourceRange, "Module version requirements have changed",
			"The version requirements have changed since this module was installed and the installed version is no longer acceptable."+advice)}
	}
	if v, err := getproviders.ParseVersion(rec.Version); err == nil && !constraints.Allows(v) {
		return diag.Diagnostics{diag.At(call.SourceRange, "Module version requirements have changed",
			fmt.Sprintf("The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable.", rec.Version)+advice)}
	}
	return nil
}

// logConfig records the configuration loaded: how many modules and files,
// resources and module calls, in how long, and whether it had errors.
func (d *Dir) logConfig(mod *config.Module, ds diag.Diagnostics, elapsed time.Duration) {
	log := d.opts.Log
	if !log.Enabled(corelog.Info) || mod == nil {
		return
	}
	modules, files, resources := 0, 0, 0
	var walk func(*config.Module)
	walk = func(c *config.Module) {
		modules++
		resources += len(c.ManagedResources) + len(c.DataResources)
		for _, child := range c.Children {
			walk(child)
		}
	}
	walk(mod)
	files = len(mod.Sources)
	log.Info("configuration loaded", corelog.Int("modules", modules), corelog.Int("files", files), corelog.Int("resources", resources),
		corelog.Int("diagnostics", len(ds)), corelog.Bool("errors", ds.HasErrors()), corelog.Duration("elapsed", elapsed))
}

// triggerShapes checks what each replace_triggered_by entry of mod may be,
// as OpenTofu checks it while loading the configuration (so that init
// reports it before installing anything). The diagnostics are in no
// particular order: they are shown sorted by place.
func triggerShapes(mod *config.Module) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, r := range mod.ManagedResources {
		if r.Managed == nil {
			continue
		}
		for _, expr := range r.Managed.ReplaceTriggeredBy {
			ds = ds.Append(lang.CheckTriggerShape(expr))
		}
	}
	return ds
}
