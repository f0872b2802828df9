package statemgr

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/inmem"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
)

// TestForgetStoredKeepsReplayedOperations: a run that read a crashed
// run's journal without the lock (-lock=false) and is itself killed after
// its first operation leaves a snapshot and journal that still give the
// crashed run's objects, not only its own.
func TestForgetStoredKeepsReplayedOperations(t *testing.T) {
	ctx := context.Background()
	addr := dataAddr
	set := func(s *state.State, name string) { setData(s, name, name) }
	inner, err := inmem.New().Store(ctx, backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	store := &journalStore{countingStore: countingStore{Store: inner}}
	prior := state.New()
	prior.Lineage, prior.Serial, prior.TerraformVersion = "L-1", 4, version.Terraform
	set(prior, "kept")
	data, err := statefile.Marshal(prior)
	if err != nil {
		t.Fatal(err)
	}
	if err := inner.Write(ctx, data); err != nil {
		t.Fatal(err)
	}
	read := func() *state.State {
		data, err := store.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		s, err := statefile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// The first run records "crashed" in the journal, then is killed.
	first := read()
	w := NewWriter(store, first)
	if err := w.WriteStart(ctx, first); err != nil {
		t.Fatal(err)
	}
	set(first, "crashed")
	if err := w.WriteChanges(ctx, first, []addrs.ObjectAddr{addr("crashed")}, false); err != nil {
		t.Fatal(err)
	}
	// The second run reads the journal without the lock, records "second",
	// and is killed too.
	second := read()
	if replayed, ds := Replay(ctx, store, second); !replayed || ds.HasErrors() {
		t.Fatalf("replayed %v: %v", replayed, ds.Err())
	}
	w = NewWriter(store, second)
	w.ForgetStored()
	if err := w.WriteStart(ctx, second); err != nil {
		t.Fatal(err)
	}
	set(second, "second")
	if err := w.WriteChanges(ctx, second, []addrs.ObjectAddr{addr("second")}, false); err != nil {
		t.Fatal(err)
	}
	recovered := read()
	if _, ds := Replay(ctx, store, recovered); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	for _, name := range []string{"kept", "crashed", "second"} {
		if recovered.Object(addr(name)) == nil {
			t.Errorf("after both runs were killed, %s is lost: %v", name, recovered.Objects())
		}
	}
}
