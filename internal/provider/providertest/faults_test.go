package providertest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

func TestFailOn(t *testing.T) {
	p := New()
	p.FailOn("a", Create, 2)
	for i := range 2 {
		got, ds := change(t, p, ThingType, nullObj, cfg{key: "a", value: "v"}.val())
		wantErr(t, ds, "create of test_thing a failed as the test asked")
		if !got.IsNull() {
			t.Errorf("failed create %d returned %#v, want null", i, got)
		}
	}
	a := create(t, p, cfg{key: "a", value: "v"})

	p.FailOn("a", Update, 1)
	got, ds := change(t, p, ThingType, a, cfg{key: "a", value: "w"}.val())
	wantErr(t, ds, "failed as the test asked")
	if !got.RawEquals(a) {
		t.Errorf("failed update returned %#v, want the prior object", got)
	}

	p.FailOn("a", Delete, 3)
	p.FailOn("a", Delete, 0) // cleared
	if _, ds := change(t, p, ThingType, a, nullObj); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got, want := p.OrderString(), "create a (failed); create a (failed); create a; update a (failed); delete a"; got != want {
		t.Errorf("OrderString = %q, want %q", got, want)
	}
	if n := len(p.Live()); n != 0 {
		t.Errorf("%d live objects, want 0", n)
	}
}

func TestFailOnPartial(t *testing.T) {
	p := New()
	p.FailOnPartial("a", Create)
	a, ds := change(t, p, ThingType, nullObj, cfg{key: "a", value: "v"}.val())
	wantErr(t, ds, "failed after making its change")
	if a.IsNull() || a.GetAttr("id").AsString() != "id-1" || !a.IsWhollyKnown() {
		t.Fatalf("partial create returned %#v, want the new object", a)
	}
	if live := p.Live(); len(live) != 1 || !live[0].State.RawEquals(a) {
		t.Errorf("Live = %v, want the partially created object", live)
	}

	p.FailOnPartial("a", Delete)
	got, ds := change(t, p, ThingType, a, nullObj)
	wantErr(t, ds, "failed after making its change")
	if !got.IsNull() {
		t.Errorf("partial delete returned %#v, want null", got)
	}
	if n := len(p.Live()); n != 0 {
		t.Errorf("%d live objects after partial delete, want 0", n)
	}
	if op, _ := p.Find("a", Create); op.Err == "" {
		t.Error("partial create recorded without Err")
	}
}

// applyAsync runs one change in a goroutine; the result arrives on the returned channel.
func applyAsync(t *testing.T, p *Provider, prior, config cty.Value) <-chan diag.Diagnostics {
	done := make(chan diag.Diagnostics, 1)
	go func() {
		_, ds := change(t, p, ThingType, prior, config)
		done <- ds
	}()
	return done
}

func TestBlockOnRelease(t *testing.T) {
	p := New()
	release := p.BlockOn("a", Create)
	aDone := applyAsync(t, p, nullObj, cfg{key: "a"}.val())
	<-p.Started("a", Create)

	create(t, p, cfg{key: "b"})
	ops := p.Ops()
	if len(ops) != 2 || ops[0].Done() || !ops[1].Done() {
		t.Fatalf("ops while a is blocked = %v, want a running and b done", ops)
	}
	if got, want := p.OrderString(), "create a (running); create b"; got != want {
		t.Errorf("OrderString = %q, want %q", got, want)
	}
	release()
	release() // idempotent
	if ds := <-aDone; ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	a, _ := p.Find("a", Create)
	b, _ := p.Find("b", Create)
	if !Overlapped(a, b) || Before(a, b) || Before(b, a) {
		t.Errorf("a %+v and b %+v: want overlapping, neither before the other", a, b)
	}
	create(t, p, cfg{key: "a", name: "second"}) // released: no longer blocks
}

func TestStopInterruptsBlockedAndSleepingApplies(t *testing.T) {
	p := New()
	ctx := context.Background()
	p.BlockOn("a", Create) // never released
	p.SleepOn("b", Create, time.Hour)
	aDone := applyAsync(t, p, nullObj, cfg{key: "a"}.val())
	bDone := applyAsync(t, p, nullObj, cfg{key: "b"}.val())
	<-p.Started("a", Create)
	<-p.Started("b", Create)

	if err := p.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	wantErr(t, <-aDone, "stopped")
	wantErr(t, <-bDone, "stopped")
	if n := len(p.Live()); n != 0 {
		t.Errorf("%d live objects after interrupted creates, want 0", n)
	}
	stops := p.Stops()
	if len(stops) != 1 {
		t.Fatalf("Stops = %v, want one call", stops)
	}
	for _, op := range p.Ops() {
		if !(op.Start < stops[0] && stops[0] < op.End) {
			t.Errorf("op %v [%d,%d] does not span Stop at %d", op, op.Start, op.End, stops[0])
		}
	}

	// Until the provider is configured again, a blocking apply returns at once;
	// others are unaffected.
	wantErr(t, <-applyAsync(t, p, nullObj, cfg{key: "a"}.val()), "stopped")
	create(t, p, cfg{key: "c"})

	if ds := p.ConfigureProvider(ctx, configureRequest()); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p.SleepOn("b", Create, 0)
	release := p.BlockOn("a", Create)
	aDone = applyAsync(t, p, nullObj, cfg{key: "a"}.val())
	select {
	case ds := <-aDone:
		t.Fatalf("apply returned %v before release after ConfigureProvider", ds.Err())
	case <-time.After(20 * time.Millisecond):
	}
	release()
	if ds := <-aDone; ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	create(t, p, cfg{key: "b"})
}

func TestSleepIgnoresContext(t *testing.T) {
	p := New()
	const d = 30 * time.Millisecond
	p.SleepOn("a", Create, d)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	resp := p.ApplyResourceChange(ctx, applyCreate(cfg{key: "a", value: "v"}))
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	if el := time.Since(start); el < d {
		t.Errorf("apply returned after %v, want the full sleep of %v", el, d)
	}
}

func TestStartedBeforeAndAfter(t *testing.T) {
	p := New()
	ch := p.Started("a", Create)
	select {
	case <-ch:
		t.Fatal("Started closed before any apply")
	default:
	}
	create(t, p, cfg{key: "a"})
	<-ch
	<-p.Started("a", Create) // already started: closed
}

func TestConcurrentUse(t *testing.T) {
	p := New()
	const n = 40
	var wg sync.WaitGroup
	results := make(chan diag.Diagnostics, 2*n)
	for i := range n {
		wg.Add(3)
		go func() {
			defer wg.Done()
			_, ds := change(t, p, ThingType, nullObj, cfg{key: fmt.Sprintf("k%d", i), value: "v"}.val())
			results <- ds
		}()
		go func() { // all race for one name: exactly one wins
			defer wg.Done()
			_, ds := change(t, p, OtherType, nullObj, cfg{key: fmt.Sprintf("n%d", i), name: "shared"}.val())
			results <- ds
		}()
		go func() { // inspection and fault injection while applies run
			defer wg.Done()
			p.FailOn(fmt.Sprintf("nope%d", i), Create, 1)
			p.SleepOn(fmt.Sprintf("nope%d", i), Update, time.Millisecond)
			_ = p.Ops()
			_ = p.Live()
			_ = p.OrderString()
			_ = p.Started(fmt.Sprintf("k%d", i), Create)
		}()
	}
	wg.Wait()
	close(results)
	failed := 0
	for ds := range results {
		if ds.HasErrors() {
			failed++
			wantErr(t, ds, `name "shared" is already taken by`)
		}
	}
	if failed != n-1 {
		t.Errorf("%d creates failed, want %d (all but one with the shared name)", failed, n-1)
	}
	if got := len(p.Live()); got != n+1 {
		t.Errorf("%d live objects, want %d", got, n+1)
	}
	seen := map[int]bool{}
	ids := map[string]bool{}
	for _, op := range p.Ops() {
		if !op.Done() || op.Start >= op.End || seen[op.Start] || seen[op.End] || ids[op.ID] {
			t.Errorf("op %+v: not done, bad interval or reused number/id", op)
		}
		seen[op.Start], seen[op.End], ids[op.ID] = true, true, true
	}
	if len(seen) != 4*n {
		t.Errorf("%d distinct sequence numbers, want %d", len(seen), 4*n)
	}
}
