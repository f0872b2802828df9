package command

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/timeline"
)

// timelineFile is where apply and destroy keep the record of the
// operations they ran (timeline.Record as JSON, mode 0600), for
// "rig show -timeline"; each run that ran an operation replaces it. It is
// .terraform/rig-timeline.json, or rig-timeline.json in TF_DATA_DIR.
func (m *Meta) timelineFile() string { return m.dataPath("rig-timeline.json") }

// newTimelineRecorder returns the recorder of the apply of g.
func newTimelineRecorder(op *operation, g *apply.Graph, f *operationFlags) *timeline.Recorder {
	cmd := "apply"
	if f.destroy {
		cmd = "destroy"
	}
	return timeline.NewRecorder(timeline.Options{Command: cmd, Parallelism: f.parallelism, Limits: f.limits,
		LimitNames: apply.LimitNames(op.cfg, g, f.limits)})
}

// keepTimeline records the apply rec observed in timelineFile when it ran
// an operation, and writes its page to the file -timeline names, if any;
// note then tells where. A failure to record is a warning; a failure to
// write the page asked for is an error.
//
// runDiags are the apply's diagnostics (noteRunErrors); the record is
// returned for the apply report, and kept as well when the apply failed
// before any operation ran (a precondition, an interrupt).
func (m *Meta) keepTimeline(rec *timeline.Recorder, g *apply.Graph, f *operationFlags, set *provider.Set, runDiags diag.Diagnostics) (note string, r *timeline.Record, ds diag.Diagnostics) {
	if rec.Operations() == 0 && f.timeline == "" && !runDiags.HasErrors() {
		return "", nil, nil
	}
	r = rec.Finish(g)
	noteRunErrors(r, runDiags)
	r.APIs = apiSeries(set)
	if rec.Operations() > 0 || runDiags.HasErrors() {
		if err := saveTimeline(m.timelineFile(), r); err != nil {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Failed to record the timeline",
				Detail: fmt.Sprintf("rig show -timeline will not show this %s: %s", r.Command, err)})
		}
	}
	if f.timeline != "" {
		if err := writeTimelinePage(f.timeline, r); err != nil {
			return "", r, ds.Append(diag.Errorf("Failed to write the timeline", "%s", err))
		}
		note = fmt.Sprintf("The timeline of this %s is in %s.", r.Command, f.timeline)
	}
	return note, r, ds
}

// apiSeries returns the calls each provider configuration of set had in
// flight to its API, and its adaptive limit, over the run (nil for a set
// that kept no trace).
func apiSeries(set *provider.Set) []timeline.API {
	var out []timeline.API
	pcs, ls := set.Limiters()
	for i, l := range ls {
		trace := l.Trace()
		if len(trace) == 0 {
			continue
		}
		a := timeline.API{Provider: pcs[i].String(), Ceiling: l.Max(), Steps: make([]timeline.APIStep, len(trace))}
		for j, p := range trace {
			a.Steps[j] = timeline.APIStep{At: p.At, InFlight: p.InFlight, Limit: p.Limit}
		}
		out = append(out, a)
	}
	return out
}

// keepPlanTimeline writes the page of a plan's calls to its providers'
// APIs to the file -timeline names, if any; note then tells where.
func keepPlanTimeline(set *provider.Set, f *operationFlags, started time.Time) (note string, ds diag.Diagnostics) {
	if f.timeline == "" {
		return "", nil
	}
	r := &timeline.Record{FormatVersion: timeline.FormatVersion, Command: "plan", Started: started, Finished: time.Now(),
		Parallelism: f.parallelism, APIs: apiSeries(set)}
	if err := writeTimelinePage(f.timeline, r); err != nil {
		return "", diag.Diagnostics{diag.Errorf("Failed to write the timeline", "%s", err)}
	}
	return fmt.Sprintf("The timeline of this plan's calls to providers is in %s.", f.timeline), nil
}

// saveTimeline writes r to timelineFile, creating its directory if needed.
func saveTimeline(timelineFile string, r *timeline.Record) error {
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(timelineFile), 0o755); err != nil {
		return err
	}
	tmp := timelineFile + ".tmp"
	if err := writePrivateFile(tmp, b); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, timelineFile); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", timelineFile, err)
	}
	return nil
}

// loadTimeline reads timelineFile; ok is false when there is none.
func loadTimeline(timelineFile string) (r *timeline.Record, ok bool, err error) {
	b, err := os.ReadFile(timelineFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	r, err = timeline.Unmarshal(b)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", timelineFile, err)
	}
	return r, true, nil
}

// writeTimelinePage writes the page of r to path.
func writeTimelinePage(path string, r *timeline.Record) error {
	var buf bytes.Buffer
	if err := timeline.WriteHTML(&buf, r); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// showTimeline is "rig show -timeline=FILE": the page of the last apply
// or destroy recorded in this working directory.
func (m *Meta) showTimeline(path string) int {
	r, ok, err := loadTimeline(m.timelineFile())
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the timeline", "%s", err)})
		return 1
	}
	if !ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("No timeline recorded",
			"No apply or destroy that ran an operation has finished in this working directory (rig keeps the last one's timeline in %s).", m.timelineFile())})
		return 1
	}
	if err := writeTimelinePage(path, r); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to write the timeline", "%s", err)})
		return 1
	}
	fmt.Fprintf(m.Out, "The timeline of the last %s (finished %s) is in %s.\n", r.Command, r.Finished.Local().Format("2006-01-02 15:04:05"), path)
	return 0
}
