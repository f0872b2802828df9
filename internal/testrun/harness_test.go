package testrun_test

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/txtartest"
)

// update is the -update flag, declared by package golden: it rewrites
// the want sections of testdata/*.txtar.
var update = golden.Update

// scenario is one txtar test: a module (*.tf, modules in subdirectories),
// its test files (*.tftest.hcl and the others) and options.
type scenario struct {
	opts testrun.Options
	live *providertest.Provider
	// sortOps lists the operations by key rather than start order (for
	// operations that run side by side).
	sortOps bool
}

// loadScenario reads a txtar scenario. Options, one a line:
// fail KEY ACTION (the fake provider fails that apply, every time) |
// sleep KEY ACTION MS | var NAME = EXPR (given from outside the test
// files) | run-parallelism N (default 1) | sort-ops | verbose |
// stop-on KEY ACTION | cancel-on KEY ACTION.
func loadScenario(t *testing.T, ar *txtar.Archive) *scenario {
	t.Helper()
	// One operation and one run at a time unless the options say
	// otherwise, so that the order of operations is the same every time.
	sc := &scenario{live: providertest.New(), opts: testrun.Options{Parallelism: 1, RunParallelism: 1}}
	files := fstest.MapFS{}
	var testFiles []*config.TestFile
	for _, f := range ar.Files {
		switch {
		case f.Name == "want":
		case f.Name == "options":
			sc.options(t, f.Data)
		case config.IsTestFile(f.Name):
			tf, ds := config.ParseTestFile(f.Name, f.Name, f.Data)
			if ds.HasErrors() {
				t.Fatalf("%s does not load: %v", f.Name, ds.Err())
			}
			testFiles = append(testFiles, tf)
		default:
			files[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
		}
	}
	slices.SortFunc(testFiles, func(a, b *config.TestFile) int { return strings.Compare(a.Name, b.Name) })
	cfg, ds := config.LoadTreeFS(files, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatalf("configuration does not load: %v", ds.Err())
	}
	var n atomic.Int64
	sc.opts.Config, sc.opts.Files = cfg, testFiles
	sc.opts.Factories = provider.Factories{
		providertest.Address(): sc.live.InstanceFactory(),
		addrs.NewBuiltInProvider("terraform"): func() (provider.Interface, error) {
			return &builtin.Terraform{NewID: func() string { return fmt.Sprintf("tf-%d", n.Add(1)) }}, nil
		},
	}
	sc.opts.LoadModule = func(_ *config.TestFile, run *config.TestRun) (*config.Module, diag.Diagnostics) {
		sub, err := fs.Sub(files, path.Clean(run.Module.Source))
		if err != nil {
			return nil, diag.Diagnostics{diag.Errorf("No module", "%s", err)}
		}
		return config.LoadTreeFS(sub, config.TreeOptions{})
	}
	return sc
}

func (sc *scenario) options(t *testing.T, src []byte) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "fail" && len(f) == 3:
			sc.live.FailOn(f[1], action(t, f[2]), 1000)
		case f[0] == "sleep" && len(f) == 4:
			ms, _ := strconv.Atoi(f[3])
			sc.live.SleepOn(f[1], action(t, f[2]), time.Duration(ms)*time.Millisecond)
		case f[0] == "var" && len(f) >= 4 && f[2] == "=":
			expr, hds := hclsyntax.ParseExpression([]byte(strings.Join(f[3:], " ")), "options", hcl.InitialPos)
			v, more := expr.Value(nil)
			if hds.HasErrors() || more.HasErrors() {
				t.Fatalf("options: bad value in %q", line)
			}
			if sc.opts.Variables == nil {
				sc.opts.Variables = map[string]planner.InputValue{}
			}
			sc.opts.Variables[f[1]] = planner.InputValue{Value: v, SourceType: "-var"}
		case f[0] == "run-parallelism" && len(f) == 2:
			sc.opts.RunParallelism, _ = strconv.Atoi(f[1])
		case f[0] == "sort-ops":
			sc.sortOps = true
		case f[0] == "verbose":
			sc.opts.Verbose = true
		case (f[0] == "stop-on" || f[0] == "cancel-on") && len(f) == 3:
			// A first interrupt (and for cancel-on a second) once that
			// apply started; cancel-on blocks the apply until then.
			started := sc.live.Started(f[1], action(t, f[2]))
			stop, cancel := make(chan struct{}), make(chan struct{})
			sc.opts.Stop, sc.opts.Cancel = stop, cancel
			hard := f[0] == "cancel-on"
			if hard {
				sc.live.BlockOn(f[1], action(t, f[2]))
			}
			go func() {
				<-started
				close(stop)
				if hard {
					close(cancel)
				}
			}()
		default:
			t.Fatalf("options: unknown line %q", line)
		}
	}
}

func action(t *testing.T, s string) providertest.Action {
	switch s {
	case "create":
		return providertest.Create
	case "update":
		return providertest.Update
	case "delete":
		return providertest.Delete
	}
	t.Fatalf("unknown action %q", s)
	return 0
}

// textReporter writes what the engine reports, one line per fact, for
// the want sections.
type textReporter struct{ b strings.Builder }

func (r *textReporter) Begin(files []*config.TestFile) {}
func (r *textReporter) File(f *testrun.FileResult) {
	fmt.Fprintf(&r.b, "%s %s\n", f.File.Name, f.Status)
	writeDiags(&r.b, "  ", f.Diagnostics)
	for _, rr := range f.Runs {
		fmt.Fprintf(&r.b, "  %s %s\n", rr.Run.Name, rr.Status)
		writeDiags(&r.b, "    ", rr.Diagnostics)
		if rr.Verbose != nil {
			fmt.Fprintf(&r.b, "    verbose: plan %d changes, state %v\n", len(rr.Verbose.Plan.Changes), rr.Verbose.State != nil)
		}
	}
}
func (r *textReporter) Cleanup(f *testrun.FileResult, c *testrun.CleanupResult) {
	fmt.Fprintf(&r.b, "cleanup %s key %q last run %s skipped %v\n", f.File.Name, c.StateKey, c.Run.Name, c.Skipped)
	writeDiags(&r.b, "  ", c.Diagnostics)
	for _, o := range c.LeftObjects() {
		fmt.Fprintf(&r.b, "  left %s\n", o)
	}
}
func (r *textReporter) Interrupted() { r.b.WriteString("interrupted\n") }
func (r *textReporter) Cancelled()   { r.b.WriteString("cancelled\n") }
func (r *textReporter) CancelSummary(s *testrun.CancelSummary) {
	fmt.Fprintf(&r.b, "cancel summary %s\n", s.File.File.Name)
	for _, st := range s.States {
		for _, o := range st.Objects {
			fmt.Fprintf(&r.b, "  state %q has %s\n", st.StateKey, o)
		}
	}
	if s.Run != nil {
		fmt.Fprintf(&r.b, "  run %s was creating %v\n", s.Run.Name, s.Creating)
	}
}
func (r *textReporter) End(s *testrun.SuiteResult) {
	fmt.Fprintf(&r.b, "suite %s: %d passed, %d failed, %d skipped\n", s.Status, s.Count(testrun.Pass), s.Count(testrun.Fail), s.Count(testrun.Skip))
}

func writeDiags(b *strings.Builder, indent string, ds diag.Diagnostics) {
	for _, d := range ds {
		if d.Summary == "Provider development overrides are in effect" {
			continue
		}
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf(" %s:%d", d.Subject.Filename, d.Subject.Start.Line)
		}
		detail, _, _ := strings.Cut(d.Detail, "\n")
		fmt.Fprintf(b, "%s%s%s: %s: %s\n", indent, d.Severity, at, d.Summary, detail)
		for _, v := range d.Values {
			fmt.Fprintf(b, "%s  value %s %#v\n", indent, v.Traversal, v.Value)
		}
	}
}

// TestScenarios runs each testdata/*.txtar suite and compares what the
// engine reports, the operations the fake provider carried out (in start
// order), the provider configurations it was configured with and the
// ephemeral resources it opened and closed.
func TestScenarios(t *testing.T) {
	txtartest.Run(t, filepath.Join("testdata", "*.txtar"), func(t *testing.T, p string, ar *txtar.Archive) {
		sc := loadScenario(t, ar)
		rep := &textReporter{}
		sc.opts.Reporter = rep
		testrun.Run(context.Background(), sc.opts)
		ops := sc.live.Ops()
		if sc.sortOps {
			slices.SortStableFunc(ops, func(a, b providertest.Op) int {
				return strings.Compare(a.Action.String()+a.Key, b.Action.String()+b.Key)
			})
		}
		got := rep.b.String() + "ops: " + providertest.OrderString(ops) + "\n" +
			fmt.Sprintf("configured: %q\n", slices.Sorted(slices.Values(sc.live.Configured()))) + overlaps(ops)
		if calls := sc.live.Ephemerals(); len(calls) > 0 {
			got += fmt.Sprintf("ephemeral: %v\n", calls)
		}
		txtartest.Check(t, p, ar, "want", got, *update)
	})
}

// overlaps lists the applies that ran at the same time, "overlapped: X Y"
// a line, by key in start order.
func overlaps(ops []providertest.Op) string {
	var b strings.Builder
	for i, x := range ops {
		for _, y := range ops[i+1:] {
			if providertest.Overlapped(x, y) {
				fmt.Fprintf(&b, "overlapped: %s %s\n", x, y)
			}
		}
	}
	return b.String()
}
