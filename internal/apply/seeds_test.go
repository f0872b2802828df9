package apply

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

func addrsObj(name string) addrs.ObjectAddr { return addrs.ObjectAddr{Instance: thing(name)} }

// thingSpec describes one test_thing block.
type thingSpec struct {
	name       string
	value      string
	replaceKey string
	refs       []string
	cbd        bool
	uniqueName string
}

func (ts thingSpec) hcl() string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"test_thing\" %q {\n  key = %q\n", ts.name, ts.name)
	if ts.value != "" {
		fmt.Fprintf(&b, "  value = %q\n", ts.value)
	}
	if ts.replaceKey != "" {
		fmt.Fprintf(&b, "  replace_key = %q\n", ts.replaceKey)
	}
	if ts.uniqueName != "" {
		fmt.Fprintf(&b, "  name = %q\n", ts.uniqueName)
	}
	if len(ts.refs) > 0 {
		var refs []string
		for _, r := range ts.refs {
			refs = append(refs, "test_thing."+r+".id")
		}
		fmt.Fprintf(&b, "  ref = [%s]\n", strings.Join(refs, ", "))
	}
	if ts.cbd {
		b.WriteString("  lifecycle {\n    create_before_destroy = true\n  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func things(specs ...thingSpec) string {
	var parts []string
	for _, s := range specs {
		parts = append(parts, s.hcl())
	}
	return strings.Join(parts, "\n")
}

// TestSeedOrders runs every "Order of operations" of the resource
// destruction notes for real and checks the order in which the provider
// saw the operations. B depends on A, and C on B.
func TestSeedOrders(t *testing.T) {
	a := thingSpec{name: "a", value: "1", replaceKey: "r1"}
	b := thingSpec{name: "b", value: "1", replaceKey: "r1", refs: []string{"a"}}
	c := thingSpec{name: "c", value: "1", replaceKey: "r1", refs: []string{"b"}}
	with := func(ts thingSpec, f func(*thingSpec)) thingSpec { f(&ts); return ts }
	replaced := func(ts thingSpec) thingSpec { return with(ts, func(t *thingSpec) { t.replaceKey = "r2" }) }
	updated := func(ts thingSpec) thingSpec { return with(ts, func(t *thingSpec) { t.value = "2" }) }
	cbd := func(ts thingSpec) thingSpec { return with(ts, func(t *thingSpec) { t.cbd = true }) }
	noRefs := func(ts thingSpec) thingSpec { return with(ts, func(t *thingSpec) { t.refs = nil }) }

	tests := []struct {
		name     string
		before   string // applied first (empty: nothing)
		after    string // then planned and applied
		destroy  bool
		want     string
		wantCBD  map[string]bool // recorded create_before_destroy after the second apply
		deposed0 bool            // no deposed objects remain
	}{
		{name: "simple create", after: things(a, b, c), want: "create a; create b; create c"},
		{name: "simple update", before: things(noRefs(b), noRefs(c)), after: things(a, b, c),
			want: "create a; update b; update c"},
		{name: "simple destroy", before: things(a, b, c), after: things(a, b, c), destroy: true,
			want: "delete c; delete b; delete a"},
		{name: "replace all", before: things(a, b), after: things(replaced(a), replaced(b)),
			want: "delete b; delete a; create a; create b"},
		{name: "replace dependency, update dependent", before: things(a, b), after: things(replaced(a), b),
			want: "delete a; create a; update b"},
		{name: "destroy then update", before: things(a, b), after: things(updated(a)),
			want: "delete b; update a"},
		{name: "replace all, dependency create_before_destroy", before: things(cbd(a), b), after: things(replaced(cbd(a)), replaced(b)),
			want: "delete b; create a; create b; delete a", deposed0: true},
		{name: "replace dependency create_before_destroy, update dependent", before: things(cbd(a), b), after: things(replaced(cbd(a)), b),
			want: "create a; update b; delete a", deposed0: true},
		{name: "update a destroyed create_before_destroy dependency", before: things(cbd(a), b), after: things(updated(noRefs(b))),
			want: "update b; delete a"},
		{name: "update a destroyed dependency", before: things(a, b), after: things(updated(noRefs(b))),
			want: "delete a; update b"},
		{name: "forced create_before_destroy", before: things(a, cbd(b)), after: things(replaced(a), replaced(cbd(b))),
			want: "create a; create b; delete b; delete a", wantCBD: map[string]bool{"a": true, "b": true}, deposed0: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			if tt.before != "" {
				s.mustStep(tt.before, plan.NormalMode)
			}
			mode := plan.NormalMode
			if tt.destroy {
				mode = plan.DestroyMode
			}
			_, ops := s.mustStep(tt.after, mode)
			checkSequence(t, ops, tt.want)
			for name, want := range tt.wantCBD {
				if got := s.objectCBD(name); got != want {
					t.Errorf("test_thing.%s recorded create_before_destroy = %v, want %v", name, got, want)
				}
			}
			if tt.deposed0 && s.deposedCount() != 0 {
				t.Errorf("%d deposed objects left in state", s.deposedCount())
			}
			// The state now matches the configuration: planning again changes nothing.
			if !tt.destroy {
				if p, ds := s.plan(tt.after, plan.NormalMode); ds.HasErrors() || p.HasChanges() {
					t.Errorf("plan after apply: errors %v, changes %v", ds.Err(), p.HasChanges())
				}
			}
		})
	}
}

// TestUniqueNamesNeedDeleteFirst shows why create_before_destroy is opt-in:
// replacing an object whose name must be unique works delete-first and
// fails create-first, leaving the old object in place and recorded.
func TestUniqueNamesNeedDeleteFirst(t *testing.T) {
	a := thingSpec{name: "a", replaceKey: "r1", uniqueName: "db"}
	s := newScenario(t)
	s.mustStep(things(a), plan.NormalMode)
	a.replaceKey = "r2"
	_, ops := s.mustStep(things(a), plan.NormalMode)
	checkSequence(t, ops, "delete a; create a")

	a.replaceKey, a.cbd = "r3", true
	_, ops, ds := s.step(things(a), plan.NormalMode)
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), `name "db" is already taken`) {
		t.Fatalf("create-first with a taken name: diagnostics %v", ds.Err())
	}
	if got := providertest.OrderString(ops); got != "create a (failed)" {
		t.Fatalf("operations: %s", got)
	}
	// Rule 10: the failed create restored the old object as current.
	if s.deposedCount() != 0 || s.state.Object(addrsObj("a")) == nil {
		t.Fatalf("old object not restored: %d deposed, current %v", s.deposedCount(), s.state.Object(addrsObj("a")))
	}
	if live := s.prov.Live(); len(live) != 1 || live[0].Name != "db" {
		t.Fatalf("live objects: %+v", live)
	}
}
