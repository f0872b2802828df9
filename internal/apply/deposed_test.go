package apply

import (
	"slices"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// leaveDeposed applies a create-first replacement of test_thing.a whose
// delete of the old object fails, so that the state holds a current object
// and the old one deposed, and returns the id of the deposed one.
func leaveDeposed(t *testing.T, s *scenario, a thingSpec) string {
	t.Helper()
	a.cbd = true
	s.mustStep(things(a), plan.NormalMode)
	old := s.state.Object(addrsObj("a"))
	a.replaceKey += "-next"
	s.prov.FailOn("a", providertest.Delete, 1)
	if _, _, ds := s.step(things(a), plan.NormalMode); !ds.HasErrors() {
		t.Fatal("the deposed object's delete did not fail")
	}
	if s.deposedCount() != 1 {
		t.Fatalf("%d deposed objects, want 1", s.deposedCount())
	}
	if old == nil {
		t.Fatal("no object before the replacement")
	}
	for _, oa := range s.state.Objects() {
		if oa.Deposed != addrs.NotDeposed {
			return objectID(t, s, oa)
		}
	}
	t.Fatal("no deposed object")
	return ""
}

func objectID(t *testing.T, s *scenario, oa addrs.ObjectAddr) string {
	t.Helper()
	v, err := s.state.Object(oa).Decode(providertest.ThingSchema().Block.ImpliedType())
	if err != nil {
		t.Fatal(err)
	}
	return v.GetAttr("id").AsString()
}

// TestDeposedObjectsDeletedAfterTheNewObject: when an instance whose
// state holds an object deposed by an earlier run is replaced, updated or
// replaced create-first again, its new object is made first and only then
// is every deposed object deleted, as OpenTofu orders it. The create is
// slowed down so that a delete not ordered after it would start while it runs.
func TestDeposedObjectsDeletedAfterTheNewObject(t *testing.T) {
	tests := []struct {
		name string
		// next is the configuration of the apply under test, from a
		// (create_before_destroy, replace_key "r1-next" in state).
		next thingSpec
		// wantFirst is the operation on a that must finish before the
		// deposed objects are deleted; wantDeletes counts the deletes.
		wantFirst   providertest.Action
		wantDeletes int
		// deleteFirst: the current object is deleted before the create.
		deleteFirst bool
	}{
		{name: "replaced create-first again", next: thingSpec{name: "a", value: "1", replaceKey: "r2", cbd: true},
			wantFirst: providertest.Create, wantDeletes: 2},
		{name: "replaced delete-first", next: thingSpec{name: "a", value: "1", replaceKey: "r2"},
			wantFirst: providertest.Create, wantDeletes: 2, deleteFirst: true},
		{name: "updated", next: thingSpec{name: "a", value: "2", replaceKey: "r1-next", cbd: true},
			wantFirst: providertest.Update, wantDeletes: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			deposedID := leaveDeposed(t, s, thingSpec{name: "a", value: "1", replaceKey: "r1"})
			currentID := objectID(t, s, addrsObj("a"))
			s.prov.SleepOn("a", tt.wantFirst, 50*time.Millisecond)
			p, ops := s.mustStep(things(tt.next), plan.NormalMode)
			if act, _ := s.action(thing("a"), p); tt.deleteFirst != (act == plan.DeleteThenCreate) {
				t.Fatalf("planned %v", act)
			}

			first := slices.IndexFunc(ops, func(o providertest.Op) bool { return o.Action == tt.wantFirst })
			if first < 0 {
				t.Fatalf("no %s in %s", tt.wantFirst, providertest.OrderString(ops))
			}
			var deleted []string
			for _, o := range ops {
				if o.Action != providertest.Delete {
					continue
				}
				deleted = append(deleted, o.ID)
				if tt.deleteFirst && o.ID == currentID {
					// The current object of a delete-first replacement goes first.
					if !providertest.Before(o, ops[first]) {
						t.Errorf("delete of the current object %s did not finish before the %s", o.ID, ops[first])
					}
					continue
				}
				if !providertest.Before(ops[first], o) {
					t.Errorf("delete of %s started (at %d) before the %s of a finished (at %d)", o.ID, o.Start, tt.wantFirst, ops[first].End)
				}
			}
			if len(deleted) != tt.wantDeletes || !slices.Contains(deleted, deposedID) {
				t.Errorf("deleted %v, want %d deletes including the deposed object %s", deleted, tt.wantDeletes, deposedID)
			}
			if s.deposedCount() != 0 {
				t.Errorf("%d deposed objects left", s.deposedCount())
			}
			s.converge(things(tt.next))
		})
	}
}
