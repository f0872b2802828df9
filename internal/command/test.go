package command

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/interrupt"
	"github.com/rig-iac/rig/internal/testreport"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
	"github.com/rig-iac/rig/internal/workdir"
)

// rig test's command: its options and help, the reports it chooses, and
// the interrupts; the suite itself runs in internal/testrun. What it takes
// from the working directory comes from workdir.Dir: the configuration,
// the variables (TestVariables), the providers, the modules run blocks
// name (TestModuleLoader), path.cwd and the workspace.

// testFlags are the options of rig test.
type testFlags struct {
	vars           []workdir.VarArg
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
		// OpenTofu and Terraform ignore them, and run every test file: so
		// does rig, and says so.
		m.showDiagnostics(diag.Diagnostics{warningf("Unexpected argument", "The test command takes no positional arguments; %q and what follows it are ignored, and every test file runs. To choose test files, use -filter=FILE; to run the tests of another directory, use -test-directory=DIR or the global -chdir option.", fs.Arg(0))})
	}
	if f.parallelism < 1 || f.runParallelism < 1 {
		return m.argsError(fs, "Invalid parallelism", "-parallelism and -run-parallelism take a whole number greater than zero.")
	}
	into, ds := ui.OpenJSONInto(f.jsonInto, f.json)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if into != nil {
		defer into.Close()
	}
	m.Input = false

	opts, files, ds := m.dir().TestSuite(f.vars, f.testDir, f.filter)
	sources := map[string][]byte{} // the module under test's, for the reports
	maps.Copy(sources, files)
	outputs := m.testOutputs(&f, into)
	reporter := outputs.Reporter(sources)
	m.sources = sources
	if !f.json {
		m.showDiagnostics(ds)
	}
	outputs.SetupDiagnostics(ds, sources)
	if ds.HasErrors() {
		return 1
	}

	stop, cancel := make(chan struct{}), make(chan struct{})
	stopSignals := interrupt.Twice(stop, cancel)
	defer stopSignals()
	opts.Parallelism, opts.RunParallelism, opts.Verbose = f.parallelism, f.runParallelism, f.verbose
	opts.Reporter = &testreport.StateSaver{Next: reporter, Save: m.dir().SaveErroredTestState}
	opts.Stop, opts.Cancel = stop, cancel
	res := testrun.Run(context.Background(), opts)
	if f.junitXML != "" {
		if err := testreport.SaveJUnit(f.junitXML, res, sources, stopped(stop)); err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("error saving JUnit XML to file %q", f.junitXML), "%s", err)})
		}
	}
	if res.Cancelled || res.Status != testrun.Pass {
		return 1
	}
	return 0
}

// testOutputs returns the reports the output options ask for (into is
// the -json-into file, or nil).
func (m *Meta) testOutputs(f *testFlags, into io.Writer) testreport.Outputs {
	o := testreport.Outputs{JSON: into, TerraformVersion: version.Terraform, RigVersion: version.Rig}
	if f.json {
		o.JSON = m.Out
		return o
	}
	o.Human = &testreport.Human{Out: m.Out, Err: m.Err, Options: m.renderOptions(), Times: true,
		Diagnostics: func(w io.Writer, ds diag.Diagnostics, src map[string][]byte) {
			saved := m.sources
			m.sources = src
			m.renderDiags(w, ds)
			m.sources = saved
		}}
	return o
}

func stopped(stop chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// addTestDirFlag defines -test-directory, for the commands that read test
// files (init and get install their runs' modules).
func addTestDirFlag(fs *flag.FlagSet, dir *string) {
	fs.StringVar(dir, "test-directory", config.DefaultTestDirectory, "Find test files in `DIR`, relative to the working directory, besides the working directory itself.")
}
