package testreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/ui"
)

const testSrc = `run "ok" {}
run "bad" {
  assert {
    condition     = output.o == var.secret
    error_message = "o is wrong"
  }
}
run "broken" {}
run "later" {}
`

// suiteResult is a suite as the engine reports it: one file that passes,
// one with a failed assertion (over a sensitive value), an error, a
// skipped run and a cleanup that left an object behind.
func suiteResult(t *testing.T) (*testrun.SuiteResult, map[string][]byte) {
	t.Helper()
	bad, ds := config.ParseTestFile("tests/bad.tftest.hcl", "tests/bad.tftest.hcl", []byte(testSrc))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	good, _ := config.ParseTestFile("good.tftest.hcl", "good.tftest.hcl", []byte(`run "only" {}`))
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cond := hcl.Range{Filename: "tests/bad.tftest.hcl", Start: hcl.Pos{Line: 4, Column: 21, Byte: 52}, End: hcl.Pos{Line: 4, Column: 45, Byte: 76}}
	failed := diag.At(cond, "Test assertion failed", "o is wrong")
	failed.Values = []diag.ExprValue{{Traversal: "output.o", Value: cty.StringVal("x")}, {Traversal: "var.secret", Value: cty.StringVal("hunter2").Mark("sensitive")}}
	left := state.New()
	addr := addrs.ObjectAddr{Instance: addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "a"}}}}
	left.SetObject(addr, &state.Object{AttrsJSON: []byte(`{"id":"id-7"}`)}, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test")})
	fileBad := &testrun.FileResult{File: bad, Status: testrun.Error, Start: start, Elapsed: 1500 * time.Millisecond,
		Sources: map[string][]byte{"tests/bad.tftest.hcl": []byte(testSrc)},
		Runs: []*testrun.RunResult{
			{Run: bad.Runs[0], Status: testrun.Pass, Start: start, Elapsed: 250 * time.Millisecond,
				Diagnostics: diag.Diagnostics{{Severity: diag.Warning, Summary: "Deprecated thing", Detail: "Use another."}}},
			{Run: bad.Runs[1], Status: testrun.Fail, Start: start, Elapsed: 500 * time.Millisecond, Diagnostics: diag.Diagnostics{failed}},
			{Run: bad.Runs[2], Status: testrun.Error, Start: start, Elapsed: 750 * time.Millisecond,
				Diagnostics: diag.Diagnostics{diag.Errorf("Failed to create test_thing.a", "provider said no")}},
			{Run: bad.Runs[3], Status: testrun.Skip},
		},
		Cleanups: []*testrun.CleanupResult{{Run: bad.Runs[2], Left: left, SavedTo: "errored_test.tfstate",
			Diagnostics: diag.Diagnostics{diag.Errorf("Failed to delete test_thing.a", "still in use")}}},
	}
	fileGood := &testrun.FileResult{File: good, Status: testrun.Pass, Start: start, Elapsed: 100 * time.Millisecond,
		Runs: []*testrun.RunResult{{Run: good.Runs[0], Status: testrun.Pass, Start: start, Elapsed: 100 * time.Millisecond}}}
	return &testrun.SuiteResult{Status: testrun.Error, Files: []*testrun.FileResult{fileGood, fileBad}, Elapsed: 2 * time.Second}, nil
}

// report sends the suite to r as the engine would.
func report(r testrun.Reporter, s *testrun.SuiteResult) {
	var files []*config.TestFile
	for _, f := range s.Files {
		files = append(files, f.File)
	}
	r.Begin(files)
	for _, f := range s.Files {
		r.File(f)
		for _, c := range f.Cleanups {
			r.Cleanup(f, c)
		}
	}
	r.End(s)
}

func TestHumanReport(t *testing.T) {
	s, _ := suiteResult(t)
	var out bytes.Buffer
	report(&Human{Out: &out, Err: &out, Times: true}, s)
	golden.Check(t, "testdata/human.golden", out.Bytes())
	if strings.Contains(out.String(), "hunter2") {
		t.Error("the report shows a sensitive value")
	}
	out.Reset()
	report(&Human{Out: &out, Err: &out, Options: ui.RenderOptions{ShowSensitive: true}}, s)
	if !strings.Contains(out.String(), `var.secret is "hunter2"`) {
		t.Errorf("-show-sensitive does not show it:\n%s", out.String())
	}
}

func TestJSONReport(t *testing.T) {
	s, _ := suiteResult(t)
	var out bytes.Buffer
	view := ui.NewJSONView(&out)
	view.Now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	report(&JSON{View: view}, s)
	golden.Check(t, "testdata/report.json", out.Bytes())
	if strings.Contains(out.String(), "hunter2") {
		t.Error("the report shows a sensitive value")
	}
}

func TestJUnit(t *testing.T) {
	s, sources := suiteResult(t)
	var out bytes.Buffer
	if err := WriteJUnit(&out, s, sources, false); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/junit.xml", out.Bytes())
}
