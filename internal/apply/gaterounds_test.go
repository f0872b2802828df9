package apply

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// The gates of one batch check in shared rounds: however many new objects
// wait, each round reads the data sources once, and every object that
// waits checks in every round until it passes.
func TestGateRoundsReadOncePerRound(t *testing.T) {
	g := &gateRounds{interval: 20 * time.Millisecond}
	var reads atomic.Int32
	read := func() diag.Diagnostics {
		reads.Add(1)
		time.Sleep(2 * time.Millisecond) // the others arrive while it reads
		return nil
	}
	// Object i passes at its (i+2)th check; all arrive at once.
	const objects = 4
	var mu sync.Mutex
	var starts []time.Time
	var wg sync.WaitGroup
	for i := range objects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := g.firstTick(time.Now())
			for check := 1; ; check++ {
				if !sleepUntil(context.Background(), tick) {
					t.Error("interrupted")
					return
				}
				r, ok := g.join(context.Background(), tick, read)
				if !ok {
					t.Error("join interrupted")
					return
				}
				mu.Lock()
				if !slices.Contains(starts, r.at) {
					starts = append(starts, r.at)
				}
				mu.Unlock()
				if check == i+2 {
					return
				}
				tick = g.nextTick(r.at)
			}
		}()
	}
	wg.Wait()
	// The last object passes at check objects+1; the rounds are that many
	// when every object joined the first (they arrive together), and each
	// read once.
	if got := int(reads.Load()); got != len(starts) || got > objects+2 {
		t.Errorf("%d reads for %d rounds; want one a round, at most %d rounds", got, len(starts), objects+2)
	}
	// Rounds fall on the batch's ticks, one interval apart from the first
	// (later when every waiting object was late for a tick).
	slices.SortFunc(starts, time.Time.Compare)
	for i := 1; i < len(starts); i++ {
		if since := starts[i].Sub(starts[0]); since < time.Duration(i)*g.interval {
			t.Errorf("round %d started %s after the first; the interval is %s", i, since, g.interval)
		}
	}
}

// An object reaching its gate after a round ended waits for the batch's
// next round rather than reading on its own; one arriving while a round
// reads joins it.
func TestGateRoundsLateArrival(t *testing.T) {
	g := &gateRounds{interval: time.Hour}
	release := make(chan struct{})
	started := make(chan struct{})
	reads := 0
	go g.join(context.Background(), time.Now(), func() diag.Diagnostics {
		reads++
		close(started)
		<-release
		return diag.Diagnostics{diag.Errorf("Probe failed", "not ready")}
	})
	<-started
	tick := g.firstTick(time.Now())
	joined := make(chan *gateRound)
	go func() {
		r, _ := g.join(context.Background(), tick, func() diag.Diagnostics { reads++; return nil })
		joined <- r
	}()
	close(release)
	r := <-joined
	if reads != 1 || !r.ds.HasErrors() {
		t.Errorf("an object arriving during a round: %d reads, round diagnostics %v; want it to share the round's one read", reads, r.ds)
	}
	if next := g.firstTick(time.Now()); !next.Equal(r.at.Add(time.Hour)) {
		t.Errorf("an object arriving after the round checks at %s; want the next round, %s", next, r.at.Add(time.Hour))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if sleepUntil(ctx, g.firstTick(time.Now())) {
		t.Errorf("waiting for the next round ignores an interrupt")
	}
}

// A data source whose configuration refers to the gated resource
// (directly or through a local value) is read by each object's check; the
// others once a round.
func TestSplitGateData(t *testing.T) {
	cfg := loadConfig(t, `
locals {
  web_names = [for w in test_thing.web : w.name]
}
data "test_probe" "lb" {
  name = "lb"
}
data "test_probe" "direct" {
  name = test_thing.web[0].name
}
data "test_probe" "via_local" {
  for_each = toset(local.web_names)
  name     = each.key
}
data "test_probe" "other" {
  name = test_thing.db.name
}
resource "test_thing" "db" {
  name = "db"
}
resource "test_thing" "web" {
  count = 2
  name  = "web${count.index}"
}
`)
	a := &applier{cfg: cfg}
	web := addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "web"}
	op := Op{Addr: web.Instance(addrs.IntKey(1)).Absolute(addrs.RootModule)}
	var refs []dataRef
	for _, name := range []string{"lb", "direct", "via_local", "other"} {
		refs = append(refs, dataRef{res: addrs.Resource{Mode: addrs.Data, Type: "test_probe", Name: name}.Absolute(addrs.RootModule)})
	}
	shared, own := a.splitGateData(op, refs)
	names := func(refs []dataRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.res.Resource.Name)
		}
		return out
	}
	if got := names(shared); !slices.Equal(got, []string{"lb", "other"}) {
		t.Errorf("read once a round: %v", got)
	}
	if got := names(own); !slices.Equal(got, []string{"direct", "via_local"}) {
		t.Errorf("read by each object: %v", got)
	}
}
