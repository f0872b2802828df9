package apply

import (
	"testing"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestRecordedDependenciesOfCBDObjects: a create_before_destroy resource
// whose object was recorded depending on A, while its configuration no
// longer refers to A. Only an old object that stays behind as deposed
// (a create-first replacement) makes A create_before_destroy; an object
// updated in place forces nothing, and A, replaced or removed, is deleted
// first, as OpenTofu 1.10 and 1.12 order it. A's unique name makes a
// create-first replacement of it fail.
func TestRecordedDependenciesOfCBDObjects(t *testing.T) {
	a := thingSpec{name: "a", replaceKey: "r1", uniqueName: "db"}
	b := thingSpec{name: "b", value: "1", replaceKey: "r1", refs: []string{"a"}}
	with := func(ts thingSpec, f func(*thingSpec)) thingSpec { f(&ts); return ts }
	// b after the change: create_before_destroy, no reference to a.
	cbdB := with(b, func(t *thingSpec) { t.cbd, t.refs = true, nil })

	tests := []struct {
		name  string
		after string
		// want is the sequence that ran, when it is one; before lists
		// pairs of operations "x", "y" of which x ended before y started,
		// when the operations in between may overlap.
		want    string
		before  [][2]string
		wantCBD map[string]bool
	}{
		{
			name:    "updated dependent, dependency replaced",
			after:   things(with(a, func(t *thingSpec) { t.replaceKey = "r2" }), with(cbdB, func(t *thingSpec) { t.value = "2" })),
			want:    "delete a; create a; update b",
			wantCBD: map[string]bool{"a": false, "b": true},
		},
		{
			name:    "updated dependent, dependency removed",
			after:   things(with(cbdB, func(t *thingSpec) { t.value = "2" })),
			want:    "delete a; update b",
			wantCBD: map[string]bool{"b": true},
		},
		{
			// The deposed b was created after a and must be deleted before
			// it, after the new a exists: a inherits create_before_destroy
			// through b's recorded dependencies (OpenTofu reports a cycle).
			name:  "replaced dependent, dependency replaced",
			after: things(with(a, func(t *thingSpec) { t.replaceKey, t.uniqueName = "r2", "" }), with(cbdB, func(t *thingSpec) { t.replaceKey = "r2" })),
			before: [][2]string{
				{"create a", "delete a"}, {"create b", "delete b"}, {"delete b", "delete a"},
			},
			wantCBD: map[string]bool{"a": true, "b": true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			s.mustStep(things(a, b), plan.NormalMode)
			_, ops := s.mustStep(tt.after, plan.NormalMode)
			if tt.want != "" {
				checkSequence(t, ops, tt.want)
			}
			for _, pair := range tt.before {
				x, y := findOp(t, ops, pair[0]), findOp(t, ops, pair[1])
				if !providertest.Before(x, y) {
					t.Errorf("%s did not end before %s started (ops: %s)", x, y, providertest.OrderString(ops))
				}
			}
			for name, want := range tt.wantCBD {
				if got := s.objectCBD(name); got != want {
					t.Errorf("test_thing.%s recorded create_before_destroy = %v, want %v", name, got, want)
				}
			}
			if n := s.deposedCount(); n != 0 {
				t.Errorf("%d deposed objects left in state", n)
			}
			s.checkNoLeaks()
			if p, ds := s.plan(tt.after, plan.NormalMode); ds.HasErrors() || p.HasChanges() {
				t.Errorf("plan after apply: errors %v, changes %v", ds.Err(), p.HasChanges())
			}
		})
	}
}

// findOp returns the operation "ACTION KEY" among ops; there must be one.
func findOp(t *testing.T, ops []providertest.Op, s string) providertest.Op {
	t.Helper()
	for _, op := range ops {
		if op.Action.String()+" "+op.Key == s {
			return op
		}
	}
	t.Fatalf("no operation %q among %s", s, providertest.OrderString(ops))
	return providertest.Op{}
}
