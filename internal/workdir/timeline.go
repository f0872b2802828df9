package workdir

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

// TimelinePath is where apply and destroy keep the record of the
// operations they ran (timeline.Record as JSON, mode 0600), for
// "rig show -timeline"; each run that ran an operation replaces it. It is
// .terraform/rig-timeline.json, or rig-timeline.json in TF_DATA_DIR.
func (d *Dir) TimelinePath() string { return d.DataPath("rig-timeline.json") }

// SaveTimeline writes r to TimelinePath, creating its directory if needed.
func (d *Dir) SaveTimeline(r *timeline.Record) error {
	timelineFile := d.TimelinePath()
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

// LoadTimeline reads TimelinePath; ok is false when there is none.
func (d *Dir) LoadTimeline() (r *timeline.Record, ok bool, err error) {
	timelineFile := d.TimelinePath()
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

// NewTimelineRecorder returns the recorder of the apply (or, with
// destroy, the destroy) of g.
func (s *Session) NewTimelineRecorder(g *apply.Graph, destroy bool) *timeline.Recorder {
	cmd := "apply"
	if destroy {
		cmd = "destroy"
	}
	return timeline.NewRecorder(timeline.Options{Command: cmd, Parallelism: s.Parallelism, Limits: s.Limits,
		LimitNames: apply.LimitNames(s.Config, g, s.Limits)})
}

// KeepTimeline records the apply rec observed in TimelinePath when it
// ran an operation or an action, and writes its page to the file page (-timeline)
// names, if any; note then tells where. A failure to record is a warning;
// a failure to write the page asked for is an error.
//
// runDiags are the apply's diagnostics (NoteRunErrors); the record is
// returned for the apply report (nil when nothing was recorded), and kept
// as well when the apply failed before any operation ran (a
// precondition, an interrupt).
func (s *Session) KeepTimeline(rec *timeline.Recorder, g *apply.Graph, page string, runDiags diag.Diagnostics) (note string, r *timeline.Record, ds diag.Diagnostics) {
	if rec.Operations() == 0 && rec.Actions() == 0 && page == "" && !runDiags.HasErrors() {
		return "", nil, nil
	}
	r = rec.Finish(g)
	NoteRunErrors(r, runDiags)
	r.APIs = apiSeries(s.Providers)
	if rec.Operations() > 0 || rec.Actions() > 0 || runDiags.HasErrors() {
		if err := s.Dir.SaveTimeline(r); err != nil {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Failed to record the timeline",
				Detail: fmt.Sprintf("rig show -timeline will not show this %s: %s", r.Command, err)})
		}
	}
	if page != "" {
		if err := WriteTimelinePage(page, r); err != nil {
			return "", r, ds.Append(diag.Errorf("Failed to write the timeline", "%s", err))
		}
		note = fmt.Sprintf("The timeline of this %s is in %s.", r.Command, page)
	}
	return note, r, ds
}

// interruptedSummary is the summary of apply's error when an interrupt
// kept operations from starting.
const interruptedSummary = "Operation interrupted"

// NoteRunErrors completes the record of an apply with what its
// diagnostics say: whether it was interrupted, and the errors about
// objects that no operation failure carried (conditions).
func NoteRunErrors(r *timeline.Record, ds diag.Diagnostics) {
	byAddr := map[string]string{}
	for _, d := range ds {
		if d.Severity != diag.Error {
			continue
		}
		if d.Summary == interruptedSummary {
			r.Interrupted = true
		}
		a := d.AddressText()
		if a == "" {
			continue
		}
		if _, ok := byAddr[a]; !ok {
			byAddr[a] = d.Error()
		}
	}
	r.NoteErrors(byAddr)
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
			// Without the monotonic reading, as the record keeps it: the
			// page drawn now and the one drawn from the record agree.
			a.Steps[j] = timeline.APIStep{At: p.At.Round(0), InFlight: p.InFlight, Limit: p.Limit}
		}
		out = append(out, a)
	}
	return out
}

// KeepPlanTimeline writes the page of a plan's calls to its providers'
// APIs, from started, to the file page (-timeline) names, if any; note
// then tells where.
func (s *Session) KeepPlanTimeline(page string, started time.Time) (note string, ds diag.Diagnostics) {
	if page == "" {
		return "", nil
	}
	r := &timeline.Record{FormatVersion: timeline.FormatVersion, Command: "plan", Started: started, Finished: time.Now(),
		Parallelism: s.Parallelism, APIs: apiSeries(s.Providers)}
	if err := WriteTimelinePage(page, r); err != nil {
		return "", diag.Diagnostics{diag.Errorf("Failed to write the timeline", "%s", err)}
	}
	return fmt.Sprintf("The timeline of this plan's calls to providers is in %s.", page), nil
}

// WriteTimelinePage writes the page of r (an HTML page) to path.
func WriteTimelinePage(path string, r *timeline.Record) error {
	var buf bytes.Buffer
	if err := timeline.WriteHTML(&buf, r); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
