package testreport

import (
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/testrun"
)

// StateSaver is a Reporter that saves what each cleanup leaves behind
// with Save (errored_test.tfstate, then errored_test.N.tfstate: saved is
// how many were saved before) before Next reports the cleanup with where
// it was saved.
type StateSaver struct {
	Next  testrun.Reporter
	Save  func(s *state.State, saved int) (name string, err error)
	saved int
}

// Begin implements testrun.Reporter.
func (e *StateSaver) Begin(files []*config.TestFile) { e.Next.Begin(files) }

// File implements testrun.Reporter.
func (e *StateSaver) File(f *testrun.FileResult) { e.Next.File(f) }

// Interrupted implements testrun.Reporter.
func (e *StateSaver) Interrupted() { e.Next.Interrupted() }

// Cancelled implements testrun.Reporter.
func (e *StateSaver) Cancelled() { e.Next.Cancelled() }

// CancelSummary implements testrun.Reporter.
func (e *StateSaver) CancelSummary(s *testrun.CancelSummary) { e.Next.CancelSummary(s) }

// End implements testrun.Reporter.
func (e *StateSaver) End(s *testrun.SuiteResult) { e.Next.End(s) }

// Cleanup implements testrun.Reporter: it saves what c leaves behind.
func (e *StateSaver) Cleanup(f *testrun.FileResult, c *testrun.CleanupResult) {
	if c.Left != nil && len(c.LeftObjects()) > 0 {
		if name, err := e.Save(c.Left, e.saved); err == nil {
			e.saved++
			saved := *c
			saved.SavedTo = name
			c = &saved
		}
	}
	e.Next.Cleanup(f, c)
}
