package apply

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// TestInterruptAfterLastOperationStarted: an interrupt that comes once
// every operation has started stops nothing, but the apply still fails as
// interrupted: the operations are recorded, the outputs are not evaluated.
func TestInterruptAfterLastOperationStarted(t *testing.T) {
	cfg := things(
		thingSpec{name: "a", value: "1"},
		thingSpec{name: "b", value: "1", refs: []string{"a"}},
	) + "\noutput \"b\" {\n  value = test_thing.b.id\n}\n"
	s := newScenario(t)
	ds := s.applyCancelledDuring(cfg, "b")
	if !ds.HasErrors() || ds[len(ds)-1].Detail != errInterruptedAfterLast.Detail {
		t.Fatalf("diagnostics: %v, want the apply reported interrupted after its last operation started", ds.Err())
	}
	checkSequence(t, s.prov.Ops(), "create a; create b")
	for _, name := range []string{"a", "b"} {
		if s.state.Object(addrsObj(name)) == nil {
			t.Errorf("test_thing.%s finished but is not recorded", name)
		}
	}
	if _, ok := s.state.Outputs["b"]; ok {
		t.Error("the interrupted apply evaluated its outputs")
	}
	s.checkNoLeaks()
	s.converge(cfg)
}

// TestInterruptReceivedAsOperationsEnd: an interrupt the command received
// as the last operation ended, before it cancelled the apply's context,
// still makes the apply end as interrupted; Finish is asked once.
func TestInterruptReceivedAsOperationsEnd(t *testing.T) {
	cfg := things(thingSpec{name: "a", value: "1"}) + "\noutput \"a\" {\n  value = test_thing.a.id\n}\n"
	for _, received := range []bool{false, true} {
		s := newScenario(t)
		p, ds := s.plan(cfg, plan.NormalMode)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		asked := 0
		set := provider.NewSet(s.factories())
		st, ds := Apply(context.Background(), loadConfig(t, cfg), p, set, Options{StateWriter: s,
			Finish: func() bool { asked++; return received }})
		set.Close()
		if asked != 1 {
			t.Errorf("received %v: Finish asked %d times, want once", received, asked)
		}
		if got := ds.HasErrors(); got != received {
			t.Errorf("received %v: apply failed: %v (%v)", received, got, ds.Err())
		}
		if st.Object(addrsObj("a")) == nil {
			t.Errorf("received %v: test_thing.a finished but is not recorded", received)
		}
		if _, ok := st.Outputs["a"]; ok == received {
			t.Errorf("received %v: output recorded %v", received, ok)
		}
	}
}
