package workdir

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/testrun"
)

// TestVariables gathers the root variable values rig test gives from
// outside the test files: those Variables gathers for a plan, then the
// terraform.tfvars and *.auto.tfvars files of the test directory testDir,
// which win. files are the variable files read, for diagnostics.
func (d *Dir) TestVariables(cfg *config.Module, args []VarArg, testDir string) (values map[string]planner.InputValue, files map[string][]byte, ds diag.Diagnostics) {
	values, files, ds = d.Variables(cfg, args, nil)
	var found []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		p := d.path(filepath.Join(testDir, name))
		if _, err := os.Stat(p); err == nil {
			found = append(found, p)
		}
	}
	auto, _ := filepath.Glob(d.path(filepath.Join(testDir, "*.auto.tfvars")))
	autoJSON, _ := filepath.Glob(d.path(filepath.Join(testDir, "*.auto.tfvars.json")))
	found = append(found, append(auto, autoJSON...)...)
	for _, p := range found {
		ds = ds.Append(loadVarFile(p, values, files, "a .tfvars file"))
	}
	return values, files, ds
}

// TestModuleLoader returns the loader of the module a run block's module
// block names: a local path relative to the working directory, or a
// module rig init installed for the run (under the manifest key OpenTofu
// and Terraform use: test.FILE.RUN, FILE without its directory's "tests/"
// nor its extension). It is safe for concurrent use.
func (d *Dir) TestModuleLoader() func(*config.TestFile, *config.TestRun) (*config.Module, diag.Diagnostics) {
	hosts := d.RegistryHosts()
	var mu sync.Mutex
	return func(file *config.TestFile, run *config.TestRun) (*config.Module, diag.Diagnostics) {
		mu.Lock()
		defer mu.Unlock()
		key := testModuleKey(file.Name, run.Name)
		installed := d.installedModules()
		resolve := func(child string, call *config.ModuleCall) (string, diag.Diagnostics) {
			return installed(key+"."+child, call)
		}
		dir := d.path(filepath.Clean(filepath.FromSlash(config.LocalSourcePath(run.Module.Source))))
		if !config.IsLocalSource(run.Module.Source) {
			manifest, err := getmodules.ReadManifest(d.DataPath("modules"))
			rec, ok := manifest.Record(key)
			if err != nil || !ok {
				return nil, diag.Diagnostics{diag.At(run.Module.SourceRange, "Module not installed",
					fmt.Sprintf("This run's module %s is not yet installed. Run \"rig init\" to install all modules required by this configuration and its tests.", run.Module.Source))}
			}
			dir = d.path(filepath.FromSlash(rec.Dir))
		}
		mod, ds := config.LoadTree(dir, config.TreeOptions{Resolve: resolve, ProviderHost: hosts.Provider, Static: d.StaticEvaluator()})
		if !ds.HasErrors() {
			ds = ds.Append(mod.CheckCoreVersion())
		}
		return mod, ds
	}
}

// testModuleKey is the manifest key of a run's module: "test", the test
// file's directory (but "."), its name without ".tftest.hcl", and the run.
func testModuleKey(file, run string) string {
	parts := []string{"test"}
	if dir := path.Dir(file); dir != "." {
		parts = append(parts, strings.Split(dir, "/")...)
	}
	return strings.Join(append(parts, strings.TrimSuffix(path.Base(file), ".tftest.hcl"), run), ".")
}

// WithTestModuleCalls returns root with a module call for each run block
// of its test files (in the working directory and testDir) that names a
// module, under the manifest key OpenTofu and Terraform install it with,
// so that installing root's modules installs theirs too. root itself is
// left as it is.
func (d *Dir) WithTestModuleCalls(root *config.Module, testDir string) (*config.Module, diag.Diagnostics) {
	files, ds := config.LoadTestFiles(d.root, testDir)
	var calls []*config.ModuleCall
	for _, f := range files {
		for _, run := range f.Runs {
			if run.Module == nil {
				continue
			}
			calls = append(calls, &config.ModuleCall{Name: testModuleKey(f.Name, run.Name), Source: run.Module.Source,
				SourceRange: run.Module.SourceRange, Version: run.Module.Version, Config: hcl.EmptyBody(), DeclRange: run.Module.DeclRange})
		}
	}
	if len(calls) == 0 {
		return root, ds
	}
	out := *root
	out.ModuleCalls = maps.Clone(root.ModuleCalls)
	if out.ModuleCalls == nil {
		out.ModuleCalls = map[string]*config.ModuleCall{}
	}
	for _, c := range calls {
		out.ModuleCalls[c.Name] = c
	}
	return &out, ds
}

// TestSuite returns what rig test runs with from the working directory:
// the checked configuration (the module under test), the test files in
// the working directory and testDir (only those filter names, when it
// names any), the variables given from outside the test files (args,
// .tfvars files, TF_VAR_), the modules run blocks name, the providers and
// provisioners, the workspace and path.cwd. files are the files read,
// for the snippets of diagnostics. The caller sets how the suite runs and
// reports.
func (d *Dir) TestSuite(args []VarArg, testDir string, filter []string) (opts testrun.Options, files map[string][]byte, ds diag.Diagnostics) {
	files = map[string][]byte{}
	cfg, ds := d.LoadCheckedConfig()
	if cfg != nil {
		maps.Copy(files, cfg.Sources)
	}
	tests, more := config.LoadTestFiles(".", testDir)
	ds = ds.Append(more)
	for _, tf := range tests {
		files[tf.Path] = tf.Source
	}
	tests, more = config.FilterTestFiles(tests, filter)
	ds = ds.Append(more)
	if !ds.HasErrors() {
		ds = ds.Append(d.CheckProviders(cfg))
	}
	vars, varFiles, more := d.TestVariables(cfg, args, testDir)
	ds = ds.Append(more)
	maps.Copy(files, varFiles)
	env, more := d.Env()
	ds = ds.Append(more)
	return testrun.Options{Config: cfg, Files: tests, LoadModule: d.TestModuleLoader(), Factories: d.ProviderFactories(),
		Variables: vars, Provisioners: Provisioners(), Env: env}, files, ds
}
