package apply

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestLimitsCapOneKindOnly: with test_thing limited to one operation at a
// time, no two test_thing operations overlap, while test_other operations
// still use the other slots.
func TestLimitsCapOneKindOnly(t *testing.T) {
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "resource \"test_thing\" \"t%d\" {\n  key = \"t%d\"\n}\n", i, i)
		fmt.Fprintf(&b, "resource \"test_other\" \"o%d\" {\n  key = \"o%d\"\n}\n", i, i)
	}
	src := b.String()
	s := newScenario(t)
	for i := range 5 {
		s.prov.SleepOn(fmt.Sprintf("t%d", i), providertest.Create, 30*time.Millisecond)
		s.prov.SleepOn(fmt.Sprintf("o%d", i), providertest.Create, 30*time.Millisecond)
	}
	p, ds := s.plan(src, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	set := provider.NewSet(s.factories())
	defer set.Close()
	_, ds = Apply(context.Background(), loadConfig(t, src), p, set, Options{Parallelism: 4, Limits: []Limit{{Name: "test_thing", N: 1}}})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	ops := s.prov.Ops()
	maxOther := 0
	for i, x := range ops {
		others := 0
		for j, y := range ops {
			if i == j || !providertest.Overlapped(x, y) {
				continue
			}
			if x.Type == "test_thing" && y.Type == "test_thing" {
				t.Errorf("%s and %s overlapped despite the limit", x, y)
			}
			if y.Type == "test_other" {
				others++
			}
		}
		maxOther = max(maxOther, others)
	}
	if maxOther == 0 {
		t.Errorf("no test_other operations ran alongside others: the free slots were left idle (%s)", providertest.OrderString(ops))
	}
	if len(ops) != 10 {
		t.Fatalf("%d operations ran, want 10", len(ops))
	}
}

// TestLimitNames: each operation counts against the limits naming its
// resource type, its resource or instance, or its provider.
func TestLimitNames(t *testing.T) {
	src := `
resource "test_thing" "a" {
  count = 2
  key   = "a${count.index}"
}
resource "test_other" "b" {
  key = "b"
}
`
	s := newScenario(t)
	p, ds := s.plan(src, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	g, ds := Order(p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	names := LimitNames(loadConfig(t, src), g, []Limit{{Name: "test_thing", N: 1}, {Name: "test_thing.a[1]", N: 1}, {Name: "test", N: 5}})
	got := map[string]string{}
	for _, op := range g.G.Nodes() {
		if !op.IsBarrier() {
			got[op.Addr.String()] = strings.Join(names(op), ",")
		}
	}
	want := map[string]string{
		"test_thing.a[0]": "test_thing,test",
		"test_thing.a[1]": "test_thing,test_thing.a[1],test",
		"test_other.b":    "test",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("limit names = %v, want %v", got, want)
	}
	if n := LimitNames(loadConfig(t, src), g, nil); n(g.G.Nodes()[0]) != nil {
		t.Errorf("without limits: %v, want nil", n(g.G.Nodes()[0]))
	}
}

// TestWritesBackOffWhenThrottled: when the provider set adapts, a create
// that fails with a throttling error halves its provider's limit, and no
// operation started afterwards runs alongside more than the new limit
// allows, within -parallelism 10.
func TestWritesBackOffWhenThrottled(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "resource \"test_thing\" \"t%d\" {\n  key = \"t%d\"\n}\n", i, i)
	}
	src := b.String()
	s := newScenario(t)
	s.prov.SleepAll(20 * time.Millisecond)
	s.prov.ThrottleOn("t0", providertest.Create, 1)
	p, ds := s.plan(src, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	set := provider.NewSet(s.factories())
	defer set.Close()
	set.Adapt(provider.Adaptive{Ceiling: 64})
	// The limit falls when rig has t0's answer, a moment after the
	// provider recorded its end: the operations that start once rig
	// reported t0 ended are the ones the lower limit governs.
	fell := &throttleSeen{prov: s.prov, addr: "test_thing.t0"}
	_, ds = Apply(context.Background(), loadConfig(t, src), p, set, Options{Parallelism: 10, Hooks: fell})
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "ThrottlingException") {
		t.Fatalf("want the throttling error of t0, got %v", ds.Err())
	}
	ops := s.prov.Ops()
	throttled, ok := s.prov.Find("t0", providertest.Create)
	if !ok {
		t.Fatal("t0 was not created")
	}
	pc := p.Changes[0].ProviderConfig
	if got := set.Limiter(pc).Limit(); got != 5 {
		t.Errorf("limit after one throttling error: %d, want 10/2 = 5", got)
	}
	for _, x := range ops {
		if x.Start < throttled.End || x.Start <= fell.lastStart {
			continue
		}
		alongside := 0
		for _, y := range ops {
			if providertest.Overlapped(x, y) && y.Start < x.Start {
				alongside++
			}
		}
		if alongside >= 5 {
			t.Errorf("%s started beside %d operations after the limit fell to 5 (%s)", x, alongside, providertest.OrderString(ops))
		}
	}
	if len(ops) != 30 {
		t.Errorf("%d operations ran, want 30", len(ops))
	}
}

// throttleSeen records, when rig reports the operation on addr ended, the
// latest start the provider has recorded so far.
type throttleSeen struct {
	NoHooks
	prov      *providertest.Provider
	addr      string
	lastStart int
}

// PostApply implements Hooks.
func (h *throttleSeen) PostApply(op Operation, _ Result) {
	if op.Addr.String() != h.addr {
		return
	}
	for _, o := range h.prov.Ops() {
		h.lastStart = max(h.lastStart, o.Start)
	}
}
