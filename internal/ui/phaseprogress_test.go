package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/zclconf/go-cty/cty"
)

// lockedBuffer is a bytes.Buffer safe for the reporter's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestPhaseProgress: at each tick the reporter writes how far the running
// phase has come, as a line and as a "progress" message; a refresh whose
// objects are all read becomes the planning phase, and an apply counts
// its operations.
func TestPhaseProgress(t *testing.T) {
	var human, stream lockedBuffer
	jv := NewJSONView(&stream)
	p := NewPhaseProgress(&human, RenderOptions{}, jv)
	ticks := make(chan time.Time)
	p.Ticks = ticks
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock sync.Mutex
	p.Now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	jv.Now = p.Now
	// tick advances the clock by d and waits for the report, so that it
	// sees the counts and the time as they are now.
	tick := func(d time.Duration) {
		clock.Lock()
		now = now.Add(d)
		at := now
		clock.Unlock()
		lines := strings.Count(human.String(), "\n")
		ticks <- at
		for strings.Count(human.String(), "\n") == lines {
			time.Sleep(time.Millisecond)
		}
	}
	obj := addrs.ObjectAddr{}

	end := p.Begin(PhaseRefresh, 5000, false)
	for range 2310 {
		p.PostRefresh(obj, cty.NilVal)
	}
	tick(41 * time.Second)
	for range 2690 {
		p.PostRefresh(obj, cty.NilVal)
	}
	tick(10 * time.Second)
	end()

	end = p.Begin(PhaseApply, 3, false)
	p.PostApply(apply.Operation{}, apply.Result{})
	tick(12 * time.Second)
	end()

	want := "Still refreshing... 2,310/5,000 (41s)\nStill planning... (51s)\nStill applying... 1/3 (12s)\n"
	if got := human.String(); got != want {
		t.Errorf("human output:\n%s\nwant:\n%s", got, want)
	}
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stream.String()), "\n") {
		var m struct {
			Type     string         `json:"type"`
			Progress map[string]any `json:"progress"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "progress" {
			got = append(got, m.Progress)
		}
	}
	wantJSON := []map[string]any{
		{"phase": "refresh", "done": 2310.0, "total": 5000.0, "elapsed_seconds": 41.0},
		{"phase": "plan", "elapsed_seconds": 51.0},
		{"phase": "apply", "done": 1.0, "total": 3.0, "elapsed_seconds": 12.0},
	}
	if len(got) != len(wantJSON) {
		t.Fatalf("progress messages %v, want %v", got, wantJSON)
	}
	for i := range got {
		for k, v := range wantJSON[i] {
			if got[i][k] != v {
				t.Errorf("message %d: %s = %v, want %v", i, k, got[i][k], v)
			}
		}
		if len(got[i]) != len(wantJSON[i]) {
			t.Errorf("message %d: %v, want %v", i, got[i], wantJSON[i])
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 2310: "2,310", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestPhaseProgressCountsOnlyWhatIsRead: a plan's refresh phase counts the
// objects the planner reads back — those it is sure to read and those
// -refresh=changed decides to read — never those it plans as recorded,
// and it lasts until every undecided object is decided.
func TestPhaseProgressCountsOnlyWhatIsRead(t *testing.T) {
	var human lockedBuffer
	p := NewPhaseProgress(&human, RenderOptions{}, nil)
	ticks := make(chan time.Time)
	p.Ticks = ticks
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock sync.Mutex
	p.Now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	tick := func() {
		clock.Lock()
		now = now.Add(10 * time.Second)
		at := now
		clock.Unlock()
		lines := strings.Count(human.String(), "\n")
		ticks <- at
		// Wait for the report, so that it sees the counts as they are now.
		for strings.Count(human.String(), "\n") == lines {
			time.Sleep(time.Millisecond)
		}
	}
	obj := func(key int) addrs.ObjectAddr {
		return addrs.ObjectAddr{Instance: addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{
			Resource: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "x"}, Key: addrs.IntKey(key)}}}
	}

	end := p.Begin(PhasePlan, 0, false)
	tick() // providers starting: nothing announced yet
	// 2 objects are read for sure (times unknown); 3 more may be.
	p.RefreshesExpected(2, []addrs.ObjectAddr{obj(2), obj(3), obj(4)})
	tick()
	p.NotRefreshed(obj(2), now)
	p.PreRefresh(obj(3), cty.NilVal) // its configuration changed: read after all
	p.PostRefresh(obj(0), cty.NilVal)
	p.PostRefresh(obj(1), cty.NilVal)
	tick()
	p.PostRefresh(obj(3), cty.NilVal)
	tick() // all 3 read, obj(4) undecided: planning meanwhile
	p.NotRefreshed(obj(4), now)
	tick()
	end()

	// Under -refresh=changed with every time recent, nothing is read
	// unless the plan decides so.
	end = p.Begin(PhasePlan, 0, false)
	p.RefreshesExpected(0, []addrs.ObjectAddr{obj(0), obj(1)})
	tick()
	p.PreRefresh(obj(1), cty.NilVal)
	tick()
	p.NotRefreshed(obj(0), now)
	p.PostRefresh(obj(1), cty.NilVal)
	tick()
	end()

	want := `Still planning... (10s)
Still refreshing... 0/2 (20s)
Still refreshing... 2/3 (30s)
Still planning... (40s)
Still planning... (50s)
Still planning... (10s)
Still refreshing... 0/1 (20s)
Still planning... (30s)
`
	if got := human.String(); got != want {
		t.Errorf("human output:\n%s\nwant:\n%s", got, want)
	}
}
