package testreport

import (
	"encoding/json"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/testrun"
)

// Multi sends every result to each of its reporters, in order.
type Multi []testrun.Reporter

var _ testrun.Reporter = Multi(nil)

// Begin implements testrun.Reporter.
func (m Multi) Begin(files []*config.TestFile) {
	for _, r := range m {
		r.Begin(files)
	}
}

// File implements testrun.Reporter.
func (m Multi) File(f *testrun.FileResult) {
	for _, r := range m {
		r.File(f)
	}
}

// Cleanup implements testrun.Reporter.
func (m Multi) Cleanup(f *testrun.FileResult, c *testrun.CleanupResult) {
	for _, r := range m {
		r.Cleanup(f, c)
	}
}

// Interrupted implements testrun.Reporter.
func (m Multi) Interrupted() {
	for _, r := range m {
		r.Interrupted()
	}
}

// Cancelled implements testrun.Reporter.
func (m Multi) Cancelled() {
	for _, r := range m {
		r.Cancelled()
	}
}

// CancelSummary implements testrun.Reporter.
func (m Multi) CancelSummary(s *testrun.CancelSummary) {
	for _, r := range m {
		r.CancelSummary(s)
	}
}

// End implements testrun.Reporter.
func (m Multi) End(s *testrun.SuiteResult) {
	for _, r := range m {
		r.End(s)
	}
}

// rawJSON embeds an already encoded JSON document in a message.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return json.RawMessage(r), nil }
