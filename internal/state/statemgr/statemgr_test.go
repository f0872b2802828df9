package statemgr

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/inmem"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
)

// countingStore counts the snapshots written through it.
type countingStore struct {
	backend.Store
	writes int
}

func (s *countingStore) count() int { return s.writes }

func (s *countingStore) Write(ctx context.Context, data []byte) error {
	s.writes++
	return s.Store.Write(ctx, data)
}

// streamingStore is a countingStore that takes snapshots as they are
// encoded (backend.StreamWriter), counting those it keeps.
type streamingStore struct{ countingStore }

func (s *streamingStore) WriteFrom(ctx context.Context, encode func(io.Writer) (bool, error)) (bool, error) {
	var buf bytes.Buffer
	keep, err := encode(&buf)
	if err != nil || !keep {
		return false, err
	}
	return true, s.Write(ctx, buf.Bytes())
}

// TestStateWriterSkipsUnchangedSnapshots: a snapshot is written, at the next
// serial, exactly when its content differs from the last one written,
// including a change that keeps the file's length; whether the store takes
// whole snapshots or snapshots as they are encoded.
func TestStateWriterSkipsUnchangedSnapshots(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		t.Run(fmt.Sprintf("streaming=%v", streaming), func(t *testing.T) { testSkipsUnchangedSnapshots(t, streaming) })
	}
}

func testSkipsUnchangedSnapshots(t *testing.T, streaming bool) {
	ctx := context.Background()
	inner, err := inmem.New().Store(ctx, backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	var store interface {
		backend.Store
		count() int
	} = &countingStore{Store: inner}
	if streaming {
		store = &streamingStore{countingStore: countingStore{Store: inner}}
	}
	s := state.New()
	addr := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Absolute(addrs.RootModule).Instance(addrs.NoKey)
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform"), Module: addrs.RootModule}
	setID := func(id string) {
		s.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{AttrsJSON: []byte(`{"id":"` + id + `"}`)}, provider)
	}
	w := NewWriter(store, s)

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
		if store.count() != st.wantWrites {
			t.Errorf("%s: %d snapshots written, want %d", st.name, store.count(), st.wantWrites)
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

// TestStateWriterKnowsTheStoredState: a writer made for a state read from
// the store (large enough to be encoded in several pieces) writes nothing
// when the apply changed nothing, and the next serial when it did.
func TestStateWriterKnowsTheStoredState(t *testing.T) {
	ctx := context.Background()
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform"), Module: addrs.RootModule}
	stored := func(t *testing.T) (*countingStore, *state.State) {
		inner, err := inmem.New().Store(ctx, backend.DefaultWorkspace)
		if err != nil {
			t.Fatal(err)
		}
		s := state.New()
		s.Lineage, s.Serial = "b7c4", 7
		for i := range 3000 {
			addr := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Absolute(addrs.RootModule).Instance(addrs.NoKey)
			s.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{AttrsJSON: []byte(fmt.Sprintf(`{"id":"%08d","input":null}`, i))}, provider)
		}
		s.TerraformVersion = version.Terraform
		data, err := statefile.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := inner.Write(ctx, data); err != nil {
			t.Fatal(err)
		}
		read, err := statefile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		return &countingStore{Store: inner}, read
	}
	first := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r0"}.Absolute(addrs.RootModule).Instance(addrs.NoKey)
	tests := []struct {
		name       string
		change     func(s *state.State)
		wantWrites int
		wantSerial uint64
	}{
		{"unchanged", func(*state.State) {}, 0, 7},
		{"same length, other content", func(s *state.State) {
			s.SetObject(addrs.ObjectAddr{Instance: first}, &state.Object{AttrsJSON: []byte(`{"id":"99999999","input":null}`)}, provider)
		}, 1, 8},
		{"one object fewer", func(s *state.State) { s.SetObject(addrs.ObjectAddr{Instance: first}, nil, provider) }, 1, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, s := stored(t)
			w := NewWriter(store, s)
			tt.change(s)
			if err := w.WriteState(ctx, s); err != nil {
				t.Fatal(err)
			}
			if store.writes != tt.wantWrites || s.Serial != tt.wantSerial {
				t.Errorf("%d snapshots written, serial %d; want %d at serial %d", store.writes, s.Serial, tt.wantWrites, tt.wantSerial)
			}
		})
	}
}
