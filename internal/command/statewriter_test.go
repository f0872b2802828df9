package command

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/inmem"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// countingStore counts the snapshots written through it.
type countingStore struct {
	backend.Store
	writes int
}

func (s *countingStore) Write(ctx context.Context, data []byte) error {
	s.writes++
	return s.Store.Write(ctx, data)
}

// TestStateWriterSkipsUnchangedSnapshots: a snapshot is written, at the next
// serial, exactly when its content differs from the last one written,
// including a change that keeps the file's length.
func TestStateWriterSkipsUnchangedSnapshots(t *testing.T) {
	ctx := context.Background()
	inner, err := inmem.New().Store(ctx, backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	store := &countingStore{Store: inner}
	s := state.New()
	addr := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Absolute(addrs.RootModule).Instance(addrs.NoKey)
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform"), Module: addrs.RootModule}
	setID := func(id string) {
		s.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{AttrsJSON: []byte(`{"id":"` + id + `"}`)}, provider)
	}
	w := newStateWriter(store, s)

	steps := []struct {
		name       string
		change     func()
		wantWrites int
		wantSerial uint64
	}{
		{"first snapshot", func() { setID("aaaa") }, 1, 1},
		{"same content", func() {}, 1, 1},
		{"same length, other content", func() { setID("bbbb") }, 2, 2},
		{"other length", func() { setID("cccccc") }, 3, 3},
		{"same content again", func() { setID("cccccc") }, 3, 3},
	}
	for _, st := range steps {
		st.change()
		if err := w.WriteState(ctx, s); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if store.writes != st.wantWrites {
			t.Errorf("%s: %d snapshots written, want %d", st.name, store.writes, st.wantWrites)
		}
		data, err := store.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := statefile.Parse(data)
		if err != nil {
			t.Fatalf("%s: stored state: %v", st.name, err)
		}
		if got.Serial != st.wantSerial || s.Serial != st.wantSerial {
			t.Errorf("%s: stored serial %d, state serial %d, want %d", st.name, got.Serial, s.Serial, st.wantSerial)
		}
	}
}
