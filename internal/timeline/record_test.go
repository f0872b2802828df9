package timeline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/graphview"
)

// TestRecorder checks the record of a simulated apply of the example:
// every operation ran once, in the order the graph allows, with its
// limits, and junctions did not run.
func TestRecorder(t *testing.T) {
	r := exampleRecord(t)
	if r.Command != "apply" || r.Parallelism != 4 || !cmp.Equal(r.Limits, []Limit{{Name: "server", N: 2}}) {
		t.Errorf("header = %q, %d, %v", r.Command, r.Parallelism, r.Limits)
	}
	if !r.Started.Equal(t0) || !r.Finished.After(r.Started) {
		t.Errorf("started %v, finished %v", r.Started, r.Finished)
	}
	ran := 0
	for _, n := range r.Nodes {
		switch {
		case n.Action == graphview.ActionJunction:
			if n.Outcome != NotRun {
				t.Errorf("junction %s has outcome %s", n.Label, n.Outcome)
			}
		case n.Outcome != OK:
			t.Errorf("%s has outcome %s, want ok", n.Label, n.Outcome)
		default:
			ran++
			if !n.End.After(n.Start) {
				t.Errorf("%s ran from %v to %v", n.Label, n.Start, n.End)
			}
			wantLimits := strings.Contains(n.Address, ".server[")
			if (len(n.Limits) == 1 && n.Limits[0] == "server") != wantLimits {
				t.Errorf("%s has limits %v", n.Label, n.Limits)
			}
		}
	}
	if ran != 21 {
		t.Errorf("%d operations ran, want 21", ran)
	}
	// An operation starts after everything it waits for (through junctions) ended.
	var end func(v int) time.Time
	end = func(v int) time.Time {
		n := r.Nodes[v]
		if n.Ran() {
			return n.End
		}
		var last time.Time
		for _, e := range r.Edges {
			if e.To == v {
				if t := end(e.From); t.After(last) {
					last = t
				}
			}
		}
		return last
	}
	for _, e := range r.Edges {
		if to := r.Nodes[e.To]; to.Ran() && to.Start.Before(end(e.From)) {
			t.Errorf("%s started at %v, before %s ended at %v", to.Label, to.Start, r.Nodes[e.From].Label, end(e.From))
		}
	}
}

// TestRecorderCutShort: an operation that started and did not report its
// end failed when the record was finished; one that never started did
// not run.
func TestRecorderCutShort(t *testing.T) {
	g := exampleGraph(t)
	c := &clock{now: t0}
	rec := NewRecorder(Options{Command: "destroy", Parallelism: 1, Now: c.Now})
	var started apply.Op
	for _, op := range g.G.Nodes() {
		if !op.IsBarrier() && g.G.InDegree(op) == 0 {
			started = op
			break
		}
	}
	c.now = t0.Add(time.Second)
	rec.PreApply(operation(g, started))
	if rec.Operations() != 1 {
		t.Errorf("Operations() = %d, want 1", rec.Operations())
	}
	c.now = t0.Add(3 * time.Second)
	r := rec.Finish(g)
	for _, n := range r.Nodes {
		want := NotRun
		if n.Label == g.Label(started) {
			want = Failed
			if !n.Start.Equal(t0.Add(time.Second)) || !n.End.Equal(t0.Add(3*time.Second)) {
				t.Errorf("%s ran from %v to %v", n.Label, n.Start, n.End)
			}
		}
		if n.Outcome != want {
			t.Errorf("%s: outcome %s, want %s", n.Label, n.Outcome, want)
		}
	}
}

// TestRecorderFailure: a failed operation is recorded so, and what waits
// for it does not run.
func TestRecorderFailure(t *testing.T) {
	g := exampleGraph(t)
	fail := "module.app.terraform_data.launch_template (create)"
	r := simulation{parallelism: 10, dur: exampleDuration(g), fail: map[string]bool{fail: true}}.run(g)
	for _, n := range r.Nodes {
		switch n.Label {
		case fail:
			if n.Outcome != Failed {
				t.Errorf("%s: outcome %s, want error", n.Label, n.Outcome)
			}
		case "module.app.terraform_data.server[0] (create)", "module.app.terraform_data.lb (update)":
			if n.Outcome != NotRun {
				t.Errorf("%s: outcome %s, want not-run", n.Label, n.Outcome)
			}
		}
	}
}

func TestRecordJSON(t *testing.T) {
	r := exampleRecord(t)
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("round trip (-want +got)\n%s", diff)
	}
	// The edges are written by hand, exactly as encoding/json would.
	for _, edges := range [][]Edge{r.Edges, nil, {}, {{From: 12, To: 3}}} {
		rec := *r
		rec.Edges = edges
		want, _ := json.Marshal(&rec)
		if got, err := rec.Marshal(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Marshal with edges %v = %s, %v; want %s", edges, got, err, want)
		}
	}
	bad := []struct{ name, json, want string }{
		{"not JSON", `{`, "decode timeline"},
		{"another version", `{"format_version": 2}`, "format version 2, want 1"},
		{"edge outside", `{"format_version": 1, "nodes": [{}], "edges": [{"from": 0, "to": 3}]}`, "edge 0 → 3 outside the 1 nodes"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Unmarshal([]byte(tt.json)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Unmarshal = %v, want an error with %q", err, tt.want)
			}
		})
	}
}
