package workdir

import (
	"context"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/testrun"
)

// Validate checks cfg as `rig validate` does, beyond its loading: its
// encryption block, that its providers are installed, its expressions
// and references (planner.Validate) and, with tests, the test files in the
// working directory and testDir. files are the test files and modules
// read, for the snippets of the diagnostics.
func (d *Dir) Validate(ctx context.Context, cfg *config.Module, tests bool, testDir string) (files map[string][]byte, ds diag.Diagnostics) {
	files = map[string][]byte{}
	_, ds = EncryptionOf(cfg)
	if !ds.HasErrors() {
		ds = ds.Append(d.CheckProviders(cfg))
	}
	cwd := ""
	if !ds.HasErrors() {
		var more diag.Diagnostics
		cwd, more = d.Cwd()
		ds = ds.Append(more)
	}
	if !ds.HasErrors() {
		set := provider.NewSet(d.ProviderFactories())
		// A value given that cannot be read stops validation, as OpenTofu's
		// stops: what is evaluated statically cannot be.
		vars, more := d.staticVariableValues(cfg)
		if ds = ds.Append(more); !more.HasErrors() {
			ds = ds.Append(planner.Validate(ctx, cfg, set, planner.ValidateOptions{Env: lang.Env{Cwd: cwd}, Variables: vars}))
		}
		if tests && !more.HasErrors() {
			ds = ds.Append(d.validateTestFiles(ctx, cfg, set, testDir, cwd, files))
		}
		_ = set.Close()
	}
	return files, ds
}

// validateTestFiles checks the test files in the working directory and
// testDir: their syntax, what their runs refer to (testrun.Validate), and
// the local modules their runs execute, validated as the configuration is.
func (d *Dir) validateTestFiles(ctx context.Context, cfg *config.Module, set *provider.Set, testDir, cwd string, sources map[string][]byte) diag.Diagnostics {
	files, ds := config.LoadTestFiles(d.root, testDir)
	// Each module is loaded, and its problems reported, once.
	loadOnce := d.TestModuleLoader()
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
				sources[name] = src
			}
		}
		return mod, ds
	}
	validated := map[string]bool{}
	for _, f := range files {
		sources[f.Path] = f.Source
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
			ds = ds.Append(planner.Validate(ctx, mod, set, planner.ValidateOptions{Env: lang.Env{Cwd: cwd}}))
		}
	}
	return ds
}

// staticVariableValues are the root variables given to `rig validate`
// (-var, -var-file, the variable files and TF_VAR_), for what validation
// evaluates statically, as OpenTofu's validate takes them, with the
// problems of reading them. Nobody is asked for a missing one.
func (d *Dir) staticVariableValues(cfg *config.Module) (map[string]planner.InputValue, diag.Diagnostics) {
	var args []VarArg
	if d.opts.Vars != nil {
		args = *d.opts.Vars
	}
	values, _, ds := d.Variables(cfg, args, nil)
	return values, ds
}
