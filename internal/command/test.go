package command

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/testreport"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
)

// rig test's command: its options and help, the reports it chooses, and
// the interrupts; the suite itself runs in internal/testrun. What it takes
// from the working directory comes through these Meta calls alone:
// loadCheckedConfig, collectVariables and loadVarFile, checkProviders,
// providerFactories, registryHosts (with installedModules, for the
// modules run blocks name), workingDir and workspace.

// testFlags are the options of rig test.
type testFlags struct {
	vars           []varFlag
	filter         []string
	testDir        string
	json           bool
	jsonInto       string
	junitXML       string
	verbose        bool
	parallelism    int
	runParallelism int
}

func runTest(m *Meta, args []string) int {
	fs := m.flagSet("test")
	var f testFlags
	addVarFlags(fs, &f.vars)
	fs.Func("filter", "Run only the test file at `FILE`, a path relative to the working directory (tests/main.tftest.hcl). Use this option more than once to run more than one file.", func(s string) error {
		f.filter = append(f.filter, filepath.ToSlash(s))
		return nil
	})
	addTestDirFlag(fs, &f.testDir)
	fs.BoolVar(&f.json, "json", false, "Print machine-readable output: one JSON message a line, as OpenTofu and Terraform write them.")
	addJSONIntoFlag(fs, &f.jsonInto)
	fs.StringVar(&f.junitXML, "junit-xml", "", "Also write the results as JUnit XML into `FILE`, in the layout Terraform writes.")
	fs.BoolVar(&f.verbose, "verbose", false, "Print the plan (command = plan) or the state (command = apply) of each run.")
	fs.IntVar(&f.parallelism, "parallelism", 10, "Run at most `N` operations at once within the plan or apply of a run.")
	fs.IntVar(&f.runParallelism, "run-parallelism", 10, "Run at most `N` run blocks (and cleanups) at once: test files run side by side, and so do a file's runs marked parallel. 1 runs them one after the other.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The test command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	if f.parallelism < 1 || f.runParallelism < 1 {
		return m.argsError(fs, "Invalid parallelism", "-parallelism and -run-parallelism take a whole number greater than zero.")
	}
	into, ds := openJSONInto(f.jsonInto, f.json)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if into != nil {
		defer into.Close()
	}
	m.Input = false

	cfg, ds := m.loadCheckedConfig()
	files, more := config.LoadTestFiles(".", f.testDir)
	ds = ds.Append(more)
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	for _, tf := range files {
		m.sources[tf.Path] = tf.Source
	}
	files, more = filterTestFiles(files, f.filter)
	ds = ds.Append(more)
	if !ds.HasErrors() {
		ds = ds.Append(m.checkProviders(cfg))
	}
	var vars = m.testVariables(cfg, f)
	ds = ds.Append(vars.diags)
	cwd, more := m.workingDir()
	ds = ds.Append(more)

	reporter, sources := m.testReporter(&f, into)
	if ds.HasErrors() {
		m.testSetupFailed(&f, into, ds, sources)
		return 1
	}
	m.showTestSetupWarnings(&f, into, ds, sources)

	stop, cancel := make(chan struct{}), make(chan struct{})
	stopSignals := notifyTestInterrupts(stop, cancel)
	defer stopSignals()
	res := testrun.Run(context.Background(), testrun.Options{
		Config: cfg, Files: files, LoadModule: m.testModuleLoader(), Factories: m.providerFactories(),
		Variables: vars.values, Provisioners: provisioners(), Parallelism: f.parallelism, RunParallelism: f.runParallelism, Verbose: f.verbose,
		Workspace: m.workspace(), Cwd: cwd, Reporter: &erroredStateSaver{next: reporter}, Stop: stop, Cancel: cancel,
	})
	if f.junitXML != "" {
		var buf bytes.Buffer
		if err := testreport.WriteJUnit(&buf, res, sources, stopped(stop)); err == nil {
			err = os.WriteFile(f.junitXML, buf.Bytes(), 0o644)
			if err != nil {
				m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("error saving JUnit XML to file %q", f.junitXML), "%s", err)})
			}
		}
	}
	if res.Cancelled || res.Status != testrun.Pass {
		return 1
	}
	return 0
}

// filterTestFiles keeps the files -filter names; a name that matches no
// file is a warning, and so is a filter that leaves nothing.
func filterTestFiles(files []*config.TestFile, filter []string) ([]*config.TestFile, diag.Diagnostics) {
	if len(filter) == 0 {
		return files, nil
	}
	var ds diag.Diagnostics
	var out []*config.TestFile
	for _, name := range filter {
		found := false
		for _, tf := range files {
			if tf.Name == path.Clean(name) {
				out = append(out, tf)
				found = true
			}
		}
		if !found {
			ds = ds.Append(warningf("Unknown test file", "The specified test file, %s, could not be found.", name))
		}
	}
	if len(out) == 0 {
		ds = ds.Append(warningf("No tests were found", "-filter is being used but no tests were found. Make sure you're using a relative path to the current working directory."))
	}
	return out, ds
}

type testVariables struct {
	values map[string]planner.InputValue
	diags  diag.Diagnostics
}

// testVariables collects the values given from outside the test files:
// as for a plan, then the terraform.tfvars and *.auto.tfvars files of the
// test directory, which win.
func (m *Meta) testVariables(cfg *config.Module, f testFlags) testVariables {
	values, ds := m.collectVariables(cfg, f.vars)
	var files []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		p := filepath.Join(f.testDir, name)
		if _, err := os.Stat(p); err == nil {
			files = append(files, p)
		}
	}
	auto, _ := filepath.Glob(filepath.Join(f.testDir, "*.auto.tfvars"))
	autoJSON, _ := filepath.Glob(filepath.Join(f.testDir, "*.auto.tfvars.json"))
	files = append(files, append(auto, autoJSON...)...)
	for _, p := range files {
		ds = ds.Append(m.loadVarFile(p, values, "a .tfvars file"))
	}
	return testVariables{values: values, diags: ds}
}

// testReporter returns the reporters the output options ask for, and the
// sources of the module under test.
func (m *Meta) testReporter(f *testFlags, into io.Writer) (testrun.Reporter, map[string][]byte) {
	sources := map[string][]byte{}
	for k, v := range m.sources {
		sources[k] = v
	}
	var reps testreport.Multi
	if !f.json {
		reps = append(reps, &testreport.Human{Out: m.Out, Err: m.Err, Options: m.renderOptions(), Sources: sources, Times: true,
			Diagnostics: func(w io.Writer, ds diag.Diagnostics, src map[string][]byte) {
				saved := m.sources
				m.sources = src
				m.renderDiags(w, ds)
				m.sources = saved
			}})
	}
	out := into
	if f.json {
		out = m.Out
	}
	if out != nil {
		view := ui.NewJSONView(out)
		view.Version(version.Terraform, version.Rig)
		reps = append(reps, &testreport.JSON{View: view, Sources: sources})
	}
	return reps, sources
}

// testSetupFailed reports the diagnostics that stop the suite before it starts.
func (m *Meta) testSetupFailed(f *testFlags, into io.Writer, ds diag.Diagnostics, sources map[string][]byte) {
	m.showTestSetupWarnings(f, into, ds, sources)
}

// showTestSetupWarnings reports the diagnostics found before the suite runs.
func (m *Meta) showTestSetupWarnings(f *testFlags, into io.Writer, ds diag.Diagnostics, sources map[string][]byte) {
	if len(ds) == 0 {
		return
	}
	if !f.json {
		m.sources = sources
		m.showDiagnostics(ds)
	}
	out := into
	if f.json {
		out = m.Out
	}
	if out != nil {
		view := ui.NewJSONView(out)
		view.Diagnostics(ds, sources)
	}
}

// notifyTestInterrupts closes stop on the first interrupt (or SIGTERM)
// and cancel on the second; the returned function stops listening.
func notifyTestInterrupts(stop, cancel chan struct{}) func() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, sigterm)
	done := make(chan struct{})
	go func() {
		count := 0
		for {
			select {
			case <-done:
				return
			case <-sigs:
				count++
				switch count {
				case 1:
					close(stop)
				case 2:
					close(cancel)
					return
				}
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

func stopped(stop chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// testModuleLoader loads the module a run block's module block names: a
// local path relative to the working directory, or a module rig init
// installed for the run (under the manifest key OpenTofu and Terraform
// use: test.FILE.RUN, FILE without its directory's "tests/" nor its
// extension).
func (m *Meta) testModuleLoader() testrun.ModuleLoader {
	hosts := m.registryHosts()
	var mu sync.Mutex
	return func(file *config.TestFile, run *config.TestRun) (*config.Module, diag.Diagnostics) {
		mu.Lock()
		defer mu.Unlock()
		key := testModuleKey(file.Name, run.Name)
		installed := m.installedModules()
		resolve := func(child string, call *config.ModuleCall) (string, diag.Diagnostics) {
			return installed(key+"."+child, call)
		}
		dir := filepath.Clean(filepath.FromSlash(config.LocalSourcePath(run.Module.Source)))
		if !config.IsLocalSource(run.Module.Source) {
			manifest, err := getmodules.ReadManifest(m.dataPath("modules"))
			rec, ok := manifest.Record(key)
			if err != nil || !ok {
				return nil, diag.Diagnostics{diag.At(run.Module.SourceRange, "Module not installed",
					fmt.Sprintf("This run's module %s is not yet installed. Run \"rig init\" to install all modules required by this configuration and its tests.", run.Module.Source))}
			}
			dir = filepath.FromSlash(rec.Dir)
		}
		mod, ds := config.LoadTree(dir, config.TreeOptions{Resolve: resolve, ProviderHost: hosts.Provider})
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

// erroredStateSaver saves what each cleanup leaves behind into
// errored_test.tfstate (errored_test.N.tfstate for the next ones, mode
// 0600) before the reporters say where.
type erroredStateSaver struct {
	next  testrun.Reporter
	saved int
}

func (e *erroredStateSaver) Begin(files []*config.TestFile)         { e.next.Begin(files) }
func (e *erroredStateSaver) File(f *testrun.FileResult)             { e.next.File(f) }
func (e *erroredStateSaver) Interrupted()                           { e.next.Interrupted() }
func (e *erroredStateSaver) Cancelled()                             { e.next.Cancelled() }
func (e *erroredStateSaver) CancelSummary(s *testrun.CancelSummary) { e.next.CancelSummary(s) }
func (e *erroredStateSaver) End(s *testrun.SuiteResult)             { e.next.End(s) }

func (e *erroredStateSaver) Cleanup(f *testrun.FileResult, c *testrun.CleanupResult) {
	if c.Left != nil && len(c.LeftObjects()) > 0 {
		name := "errored_test.tfstate"
		if e.saved > 0 {
			name = "errored_test." + strconv.Itoa(e.saved+1) + ".tfstate"
		}
		if b, err := statefile.Marshal(c.Left); err == nil && writePrivateFile(name, b) == nil {
			e.saved++
			saved := *c
			saved.SavedTo = name
			c = &saved
		}
	}
	e.next.Cleanup(f, c)
}

// addTestDirFlag defines -test-directory, for the commands that read test
// files (init and get install their runs' modules).
func addTestDirFlag(fs *flag.FlagSet, dir *string) {
	fs.StringVar(dir, "test-directory", config.DefaultTestDirectory, "Find test files in `DIR`, relative to the working directory, besides the working directory itself.")
}

// withTestModuleCalls returns root with a module call for each run block
// of its test files (in the working directory and testDir) that names a
// module, under the manifest key OpenTofu and Terraform install it with
// (testModuleKey), so that installing root's modules installs theirs too.
// root itself is left as it is.
func withTestModuleCalls(root *config.Module, testDir string) (*config.Module, diag.Diagnostics) {
	files, ds := config.LoadTestFiles(".", testDir)
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
