package testreport

import (
	"fmt"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/ui"
)

// JSON writes the machine-readable messages of rig test, those OpenTofu
// writes (test_abstract, test_file, test_run, diagnostic, test_plan and
// test_state with -verbose, test_cleanup, test_interrupt, test_summary),
// with rig's additions: "elapsed" (milliseconds) in test_file and test_run.
type JSON struct {
	View *ui.JSONView
	// Sources are the files of the module under test.
	Sources map[string][]byte
}

var _ testrun.Reporter = (*JSON)(nil)

// Begin implements testrun.Reporter.
func (j *JSON) Begin(files []*config.TestFile) {
	abstract := map[string][]string{}
	runs := 0
	for _, f := range files {
		names := []string{}
		for _, r := range f.Runs {
			names = append(names, r.Name)
		}
		runs += len(names)
		abstract[f.Name] = names
	}
	filesWord, runsWord := "files", "run blocks"
	if len(files) == 1 {
		filesWord = "file"
	}
	if runs == 1 {
		runsWord = "run block"
	}
	j.View.Message(fmt.Sprintf("Found %d %s and %d %s", len(files), filesWord, runs, runsWord), "test_abstract",
		map[string]any{"test_abstract": abstract})
}

// File implements testrun.Reporter.
func (j *JSON) File(f *testrun.FileResult) {
	j.View.Message(fmt.Sprintf("%s... %s", f.File.Name, humanStatus(f.Status)), "test_file", map[string]any{
		"@testfile": f.File.Name,
		"test_file": map[string]any{"path": f.File.Name, "status": f.Status.String(), "elapsed": f.Elapsed.Milliseconds()},
	})
	j.View.DiagnosticsWith(f.Diagnostics, mergeSources(j.Sources, f.Sources), map[string]any{"@testfile": f.File.Name})
	for _, r := range f.Runs {
		fields := map[string]any{"@testfile": f.File.Name, "@testrun": r.Run.Name}
		j.View.Message(fmt.Sprintf("  %q... %s", r.Run.Name, humanStatus(r.Status)), "test_run", map[string]any{
			"@testfile": f.File.Name, "@testrun": r.Run.Name,
			"test_run": map[string]any{"path": f.File.Name, "run": r.Run.Name, "status": r.Status.String(), "elapsed": r.Elapsed.Milliseconds()},
		})
		if r.Verbose != nil {
			j.verbose(f, r)
		}
		j.View.DiagnosticsWith(r.Diagnostics, mergeSources(j.Sources, f.Sources), fields)
	}
}

func (j *JSON) verbose(f *testrun.FileResult, r *testrun.RunResult) {
	schemas := ui.ProviderSchemas(r.Verbose.Schemas)
	fields := map[string]any{"@testfile": f.File.Name, "@testrun": r.Run.Name}
	if r.Verbose.State != nil {
		b, err := ui.MarshalStateJSON(r.Verbose.State, schemas, ui.JSONOptions{})
		if err != nil {
			return
		}
		fields["test_state"] = rawJSON(b)
		j.View.Message("-verbose flag enabled, printing state", "test_state", fields)
		return
	}
	b, err := ui.MarshalPlanJSON(r.Verbose.Plan, schemas, ui.JSONOptions{})
	if err != nil {
		return
	}
	fields["test_plan"] = rawJSON(b)
	j.View.Message("-verbose flag enabled, printing plan", "test_plan", fields)
}

// Cleanup implements testrun.Reporter.
func (j *JSON) Cleanup(f *testrun.FileResult, c *testrun.CleanupResult) {
	fields := map[string]any{"@testfile": f.File.Name}
	what := f.File.Name
	if c.Run != nil {
		fields["@testrun"] = c.Run.Name
		what += "/" + c.Run.Name
	}
	if objs := c.LeftObjects(); len(objs) > 0 {
		file := "errored_test.tfstate"
		if c.SavedTo != "" {
			file = c.SavedTo
		}
		failed := make([]map[string]any, 0, len(objs))
		for _, o := range objs {
			failed = append(failed, map[string]any{"instance": o.Addr.Instance.String(), "deposed_key": string(o.Addr.Deposed), "id": o.ID})
		}
		cleanup := map[string]any{"failed_resources": failed, "skipped": c.Skipped, "state_file": file}
		msg := fmt.Sprintf("rig left some resources in state after executing %s, these left-over resources can be viewed by reading the statefile written to disk(%s) and they need to be cleaned up manually:", what, file)
		if c.Skipped {
			msg = fmt.Sprintf("rig kept some resources after executing %s, as skip_cleanup asks; they are recorded in the state file %s:", what, file)
		}
		j.View.ErrorMessage(msg, "test_cleanup", withField(fields, "test_cleanup", cleanup))
	}
	j.View.DiagnosticsWith(c.Diagnostics, mergeSources(j.Sources, f.Sources), fields)
}

// Interrupted implements testrun.Reporter.
func (j *JSON) Interrupted() {
	j.View.Log("Interrupt received.\nPlease wait for rig to exit or data loss may occur.\nGracefully shutting down...\n")
}

// Cancelled implements testrun.Reporter.
func (j *JSON) Cancelled() {
	j.View.Log("Two interrupts received. Exiting immediately. Note that data loss may have occurred.")
}

// CancelSummary implements testrun.Reporter.
func (j *JSON) CancelSummary(s *testrun.CancelSummary) {
	msg := map[string]any{}
	states := map[string]any{}
	for _, st := range s.States {
		objs := make([]map[string]any, 0, len(st.Objects))
		for _, o := range st.Objects {
			objs = append(objs, map[string]any{"instance": o.Addr.Instance.String(), "deposed_key": string(o.Addr.Deposed), "id": o.ID})
		}
		if st.StateKey == "" {
			msg["state"] = objs
		} else if st.Run != nil {
			states[st.Run.Name] = objs
		}
	}
	if len(states) > 0 {
		msg["states"] = states
	}
	if len(s.Creating) > 0 {
		planned := make([]string, 0, len(s.Creating))
		for _, a := range s.Creating {
			planned = append(planned, a.String())
		}
		msg["planned"] = planned
	}
	j.View.ErrorMessage("rig was interrupted during test execution, and may not have performed the expected cleanup operations.", "test_interrupt",
		map[string]any{"@testfile": s.File.File.Name, "test_interrupt": msg})
}

// End implements testrun.Reporter.
func (j *JSON) End(s *testrun.SuiteResult) {
	passed, skipped := s.Count(testrun.Pass), s.Count(testrun.Skip)
	failed, errored := 0, 0
	for _, f := range s.Files {
		for _, r := range f.Runs {
			switch r.Status {
			case testrun.Fail:
				failed++
			case testrun.Error:
				errored++
			}
		}
	}
	var msg string
	if s.Status <= testrun.Skip {
		msg = "Executed 0 tests"
		if skipped > 0 {
			msg += fmt.Sprintf(", %d skipped.", skipped)
		} else {
			msg += "."
		}
	} else {
		msg = "Failure!"
		if s.Status == testrun.Pass {
			msg = "Success!"
		}
		msg += fmt.Sprintf(" %d passed, %d failed", passed, failed+errored)
		if skipped > 0 {
			msg += fmt.Sprintf(", %d skipped.", skipped)
		} else {
			msg += "."
		}
	}
	j.View.Message(msg, "test_summary", map[string]any{"test_summary": map[string]any{
		"status": s.Status.String(), "passed": passed, "failed": failed, "errored": errored, "skipped": skipped,
		"elapsed": s.Elapsed.Milliseconds(),
	}})
}

// humanStatus is a status as the messages' text gives it (an error fails).
func humanStatus(s testrun.Status) string {
	if s == testrun.Error {
		return "fail"
	}
	return s.String()
}

func withField(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}
