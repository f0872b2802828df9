package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/graphview"
	"github.com/rig-iac/rig/internal/plan"
)

// FormatVersion is the version of the Record JSON this package writes and reads.
const FormatVersion = 1

// Record is what one apply or destroy ran, and when. Nodes and Edges are
// the operation graph (junctions included, which carry out nothing), so
// that the critical path can be found from the record alone.
type Record struct {
	FormatVersion int `json:"format_version"`
	// Command is "apply", "destroy" or "plan".
	Command  string    `json:"command"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Parallelism is -parallelism: the most operations running at once.
	Parallelism int `json:"parallelism"`
	// Limits are the finer limits (-limit, rig.hcl) of the apply.
	Limits []Limit `json:"limits"`
	// Nodes are the operation graph's nodes, in graphview.Build's order.
	Nodes []Node `json:"nodes"`
	// Interrupted is set when an interrupt stopped the apply before
	// every operation had started.
	Interrupted bool `json:"interrupted,omitempty"`
	// APIs are the calls each provider configuration made to its API
	// (reads while planning, writes while applying) and their adaptive
	// limit, over time; a plan's record has these alone.
	APIs []API `json:"apis,omitempty"`
	// Activities are what ran within or beside the operations: actions,
	// ephemeral resources' opens, renewals and closes, health gate checks;
	// by start time.
	Activities []Activity `json:"activities,omitempty"`
	// Edges say that From had to finish before To started; written last,
	// by hand (see Marshal).
	Edges []Edge `json:"edges"`
}

// API is the calls one provider configuration had in flight to its API,
// and its adaptive limit, over time.
type API struct {
	// Provider is the provider configuration (provider["…"].alias).
	Provider string `json:"provider"`
	// Ceiling is the most calls the limit allows.
	Ceiling int `json:"ceiling"`
	// Steps hold from their At until the next step's.
	Steps []APIStep `json:"steps"`
}

// APIStep is one step of an API's series.
type APIStep struct {
	At       time.Time `json:"at"`
	InFlight int       `json:"in_flight"`
	Limit    int       `json:"limit"`
}

// Limit is one limit class: at most N operations it names at once.
type Limit struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// Node is one node of the operation graph and, if it ran, when.
type Node struct {
	Label   string           `json:"label"`
	Address string           `json:"address"`
	Module  string           `json:"module"`
	Action  graphview.Action `json:"action"`
	// Outcome is how the operation ended; NotRun for a junction and for an
	// operation that did not start.
	Outcome Outcome `json:"outcome"`
	// Error is why a failed operation failed; "" otherwise.
	Error string `json:"error,omitempty"`
	// Start and End are when the operation started and ended (zero unless it ran).
	Start time.Time `json:"start,omitzero"`
	End   time.Time `json:"end,omitzero"`
	// Limits are the names of the limits the operation counted against;
	// every operation also counts against Parallelism.
	Limits []string `json:"limits,omitempty"`
}

// Ran reports whether the node is an operation that ran.
func (n Node) Ran() bool { return n.Outcome == OK || n.Outcome == Failed }

// Duration is how long the operation ran; 0 unless it ran.
func (n Node) Duration() time.Duration {
	if !n.Ran() {
		return 0
	}
	return n.End.Sub(n.Start)
}

// Edge is an edge of the operation graph, between indexes of Record.Nodes.
type Edge struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Outcome is how an operation ended.
type Outcome string

const (
	// NotRun is a junction's outcome, or an operation's that did not start.
	NotRun Outcome = "not-run"
	// OK is an operation's that succeeded.
	OK Outcome = "ok"
	// Failed is an operation's that ended with an error.
	Failed Outcome = "error"
)

// Ran returns the indexes of the nodes that ran, ordered by start time
// (then by index). The caller owns the slice.
func (r *Record) Ran() []int {
	var out []int
	for i, n := range r.Nodes {
		if n.Ran() {
			out = append(out, i)
		}
	}
	sortByStart(r, out)
	return out
}

// Marshal returns the record as JSON.
func (r *Record) Marshal() ([]byte, error) {
	// The edges, last and by far the most numerous (an apply of objects
	// that record hundreds of dependencies has hundreds of thousands), are
	// written by hand, as encoding/json writes them.
	rest := *r
	rest.Edges = nil
	b, err := json.Marshal(&rest)
	if err != nil {
		return nil, fmt.Errorf("encode timeline: %w", err)
	}
	const tail = `"edges":null}`
	if !bytes.HasSuffix(b, []byte(tail)) {
		return nil, fmt.Errorf("encode timeline: edges are not the last field")
	}
	b = b[:len(b)-len(tail)+len(`"edges":`)]
	if r.Edges == nil {
		return append(b, "null}"...), nil
	}
	b = slices.Grow(b, len(r.Edges)*len(`{"from":1000,"to":1000},`)+2)
	b = append(b, '[')
	for i, e := range r.Edges {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"from":`...)
		b = strconv.AppendInt(b, int64(e.From), 10)
		b = append(b, `,"to":`...)
		b = strconv.AppendInt(b, int64(e.To), 10)
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

// Unmarshal reads a record Marshal wrote.
func Unmarshal(b []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decode timeline: %w", err)
	}
	if r.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("decode timeline: format version %d, want %d", r.FormatVersion, FormatVersion)
	}
	for _, e := range r.Edges {
		if e.From < 0 || e.From >= len(r.Nodes) || e.To < 0 || e.To >= len(r.Nodes) {
			return nil, fmt.Errorf("decode timeline: edge %d → %d outside the %d nodes", e.From, e.To, len(r.Nodes))
		}
	}
	return &r, nil
}

// Options configures a Recorder.
type Options struct {
	// Command is "apply", "destroy" or "plan".
	Command string
	// Parallelism and Limits are the apply's (apply.Options).
	Parallelism int
	Limits      []apply.Limit
	// LimitNames gives the names of the limits an operation counts
	// against (apply.LimitNames); nil means none.
	LimitNames func(apply.Op) []string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Recorder notes when each operation of an apply starts and ends. It is
// an apply.Hooks, safe for concurrent use; Finish turns what it noted
// into a Record.
type Recorder struct {
	apply.NoHooks
	opts    Options
	started time.Time

	mu sync.Mutex // guards spans and activities
	// spans holds each operation that started, by operation.
	spans map[apply.Op]*span
	// activities holds what ran within or beside the operations, in the
	// order it started (activities.go).
	activities []*activity
}

type span struct {
	start, end time.Time
	ended      bool
	failed     bool
	// err is the failure's message.
	err string
}

// NewRecorder returns a Recorder whose clock starts now.
func NewRecorder(opts Options) *Recorder {
	if opts.Now == nil {
		// Wall clock readings only: the record saved and read back then
		// gives the same durations, and the same page, as the one in
		// memory (a monotonic reading would not survive the round trip).
		opts.Now = func() time.Time { return time.Now().Round(0) }
	}
	return &Recorder{opts: opts, started: opts.Now(), spans: map[apply.Op]*span{}}
}

// opOf returns the operation of the graph an apply.Operation reports.
func opOf(o apply.Operation) apply.Op {
	kind := apply.OpCreate
	if o.Action == plan.Delete {
		kind = apply.OpDelete
	}
	return apply.Op{Addr: o.Addr, Deposed: o.Deposed, Kind: kind}
}

// PreApply notes that an operation started.
func (r *Recorder) PreApply(o apply.Operation) {
	now := r.opts.Now()
	r.mu.Lock()
	r.spans[opOf(o)] = &span{start: now}
	r.mu.Unlock()
}

// PostApply notes that an operation ended, and how.
func (r *Recorder) PostApply(o apply.Operation, res apply.Result) {
	now := r.opts.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.spans[opOf(o)]
	if s == nil {
		s = &span{start: now}
		r.spans[opOf(o)] = s
	}
	s.end, s.ended, s.failed = now, true, res.Err != nil
	if res.Err != nil {
		s.err = res.Err.Error()
	}
}

// Operations returns how many operations started.
func (r *Recorder) Operations() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.spans)
}

// Finish returns the record of the apply of g, which has ended. An
// operation that started and never reported its end (an apply cut short)
// is recorded as failed at the time of Finish.
func (r *Recorder) Finish(g *apply.Graph) *Record {
	now := r.opts.Now()
	d := graphview.Build(g, nil)
	rec := &Record{FormatVersion: FormatVersion, Command: r.opts.Command, Started: r.started, Finished: now,
		Parallelism: r.opts.Parallelism, Limits: []Limit{}, Nodes: make([]Node, len(d.Nodes)), Edges: make([]Edge, 0, len(d.Edges))}
	for _, l := range r.opts.Limits {
		rec.Limits = append(rec.Limits, Limit{Name: l.Name, N: l.N})
	}
	for i, n := range d.Nodes {
		rec.Nodes[i] = Node{Label: n.Label, Address: n.Address, Module: n.Module, Action: n.Action, Outcome: NotRun}
	}
	for _, e := range d.Edges {
		rec.Edges = append(rec.Edges, Edge{From: e.From, To: e.To})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for op, s := range r.spans {
		id, ok := d.NodeOf(op)
		if !ok {
			continue
		}
		n := &rec.Nodes[id]
		n.Start, n.End, n.Outcome = s.start, s.end, OK
		if !s.ended {
			n.End = now
		}
		if s.failed || !s.ended {
			n.Outcome = Failed
			n.Error = s.err
		}
		if r.opts.LimitNames != nil {
			n.Limits = r.opts.LimitNames(op)
		}
	}
	rec.Activities = r.finishActivities(d, now)
	return rec
}
