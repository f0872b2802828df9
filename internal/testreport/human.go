package testreport

import (
	"fmt"
	"io"
	"strings"
	"time"

	wordwrap "github.com/mitchellh/go-wordwrap"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/testrun"
	"github.com/rig-iac/rig/internal/ui"
)

// DiagnosticsFunc renders diagnostics for people into w; sources holds the
// files they may point into.
type DiagnosticsFunc func(w io.Writer, ds diag.Diagnostics, sources map[string][]byte)

// Human is the report for people, as OpenTofu prints it: each file's
// status, then each run's with its diagnostics (and, verbose, its plan or
// state), then what the cleanup left behind, and a conclusion. rig adds
// the time each file and run took.
type Human struct {
	// Out receives the report, Err the messages about interrupts and
	// cleanups.
	Out, Err io.Writer
	Options  ui.RenderOptions
	// Diagnostics renders diagnostics; nil renders them plainly.
	Diagnostics DiagnosticsFunc
	// Sources are the files of the module under test.
	Sources map[string][]byte
	// Times shows how long each file and run took (rig's addition).
	Times bool
}

var _ testrun.Reporter = (*Human)(nil)

// Begin implements testrun.Reporter; the human report has no preamble.
func (h *Human) Begin([]*config.TestFile) {}

// File implements testrun.Reporter.
func (h *Human) File(f *testrun.FileResult) {
	fmt.Fprintf(h.Out, "%s... %s%s\n", f.File.Name, h.status(f.Status), h.elapsed(f.Elapsed))
	h.diagnostics(h.Err, f.Diagnostics, f)
	for _, r := range f.Runs {
		fmt.Fprintf(h.Out, "  run %q... %s%s\n", r.Run.Name, h.status(r.Status), h.elapsed(r.Elapsed))
		if r.Verbose != nil {
			h.verbose(r)
		}
		h.diagnostics(h.Err, r.Diagnostics, f)
	}
}

func (h *Human) verbose(r *testrun.RunResult) {
	schemas := ui.ProviderSchemas(r.Verbose.Schemas)
	if r.Verbose.State != nil {
		fmt.Fprintln(h.Out)
		_ = ui.RenderState(h.Out, r.Verbose.State, schemas, h.Options)
		fmt.Fprintln(h.Out)
		return
	}
	_ = ui.RenderPlan(h.Out, r.Verbose.Plan, schemas, h.Options)
}

// Cleanup implements testrun.Reporter.
func (h *Human) Cleanup(f *testrun.FileResult, c *testrun.CleanupResult) {
	what := f.File.Name
	if c.Run != nil {
		what += "/" + c.Run.Name
	}
	if c.Diagnostics.HasErrors() {
		h.wrapped(h.Err, fmt.Sprintf("rig encountered an error destroying resources created while executing %s.", what))
	}
	h.diagnostics(h.Err, c.Diagnostics, f)
	objs := c.LeftObjects()
	if len(objs) == 0 {
		return
	}
	file := "errored_test.tfstate"
	if c.SavedTo != "" {
		file = c.SavedTo
	}
	if c.Skipped {
		h.wrapped(h.Err, fmt.Sprintf("\nrig kept the following resources after executing %s, as skip_cleanup asks; they are recorded in the state file %s and need to be cleaned up once no longer needed:", what, file))
	} else {
		h.wrapped(h.Err, fmt.Sprintf("\nrig left the following resources in state after executing %s, these left-over resources can be viewed by reading the statefile written to disk(%s) and they need to be cleaned up manually:", what, file))
	}
	for _, o := range objs {
		fmt.Fprintf(h.Err, "  - %s\n", o)
	}
}

// Interrupted implements testrun.Reporter.
func (h *Human) Interrupted() {
	fmt.Fprint(h.Err, "\nInterrupt received.\nPlease wait for rig to exit or data loss may occur.\nGracefully shutting down...\n\n")
}

// Cancelled implements testrun.Reporter.
func (h *Human) Cancelled() {
	h.wrapped(h.Err, "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n")
}

// CancelSummary implements testrun.Reporter.
func (h *Human) CancelSummary(s *testrun.CancelSummary) {
	h.wrapped(h.Err, fmt.Sprintf("\nrig was interrupted while executing %s, and may not have performed the expected cleanup operations.", s.File.File.Name))
	for _, st := range s.States {
		if st.StateKey == "" {
			h.wrapped(h.Err, "\nrig has already created the following resources from the module under test:")
		} else {
			run := ""
			if st.Run != nil {
				run = st.Run.Name
			}
			h.wrapped(h.Err, fmt.Sprintf("\nrig has already created the following resources for %q from %q:", run, st.StateKey))
		}
		for _, o := range st.Objects {
			fmt.Fprintf(h.Err, "  - %s\n", o)
		}
	}
	if s.Run != nil && len(s.Creating) > 0 {
		module := "the module under test"
		if s.Run.Module != nil {
			module = fmt.Sprintf("%q", s.Run.Module.Source)
		}
		h.wrapped(h.Err, fmt.Sprintf("\nrig was in the process of creating the following resources for %q from %s, and they may not have been destroyed:", s.Run.Name, module))
		for _, a := range s.Creating {
			fmt.Fprintf(h.Err, "  - %s\n", a)
		}
	}
}

// End implements testrun.Reporter.
func (h *Human) End(s *testrun.SuiteResult) {
	fmt.Fprintln(h.Out)
	skipped := s.Count(testrun.Skip)
	if s.Status <= testrun.Skip {
		fmt.Fprint(h.Out, "Executed 0 tests")
		if skipped > 0 {
			fmt.Fprintf(h.Out, ", %d skipped.\n", skipped)
		} else {
			fmt.Fprintln(h.Out, ".")
		}
		return
	}
	if s.Status == testrun.Pass {
		fmt.Fprint(h.Out, h.color("[green]Success![reset]"))
	} else {
		fmt.Fprint(h.Out, h.color("[red]Failure![reset]"))
	}
	fmt.Fprintf(h.Out, " %d passed, %d failed", s.Count(testrun.Pass), s.Count(testrun.Fail))
	if skipped > 0 {
		fmt.Fprintf(h.Out, ", %d skipped.", skipped)
	} else {
		fmt.Fprint(h.Out, ".")
	}
	fmt.Fprintf(h.Out, "%s\n", h.elapsed(s.Elapsed))
}

func (h *Human) status(s testrun.Status) string {
	switch s {
	case testrun.Error, testrun.Fail:
		return h.color("[red]fail[reset]")
	case testrun.Pass:
		return h.color("[green]pass[reset]")
	case testrun.Skip:
		return h.color("[dark_gray]skip[reset]")
	}
	return h.color("[dark_gray]pending[reset]")
}

// elapsed is the time a file or run took, as the report adds it.
func (h *Human) elapsed(d time.Duration) string {
	if !h.Times {
		return ""
	}
	return " " + FormatElapsed(d)
}

// FormatElapsed writes a duration as the reports show it: "(1.25s)".
func FormatElapsed(d time.Duration) string {
	return fmt.Sprintf("(%.2fs)", d.Seconds())
}

// color expands the few tags the report uses.
func (h *Human) color(s string) string {
	tags := map[string]string{"[green]": "\x1b[32m", "[red]": "\x1b[31m", "[dark_gray]": "\x1b[90m", "[reset]": "\x1b[0m"}
	for tag, code := range tags {
		if !h.Options.Color {
			code = ""
		}
		s = strings.ReplaceAll(s, tag, code)
	}
	return s
}

func (h *Human) wrapped(w io.Writer, text string) {
	width := h.Options.Width
	if width <= 0 {
		width = 78
	}
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(wordwrap.WrapString(line, uint(width)))
	}
	fmt.Fprintln(w, b.String())
}

func (h *Human) diagnostics(w io.Writer, ds diag.Diagnostics, f *testrun.FileResult) {
	if len(ds) == 0 {
		return
	}
	sources := mergeSources(h.Sources, f.Sources)
	if h.Diagnostics != nil {
		h.Diagnostics(w, ds, sources)
		return
	}
	_ = ui.RenderDiagnosticsPlain(w, ds, sources, h.Options)
}

// mergeSources returns the files of a and b in one map (b's win).
func mergeSources(a, b map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
