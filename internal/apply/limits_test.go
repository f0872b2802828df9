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
