package statemgr

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/inmem"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
)

// memJournal is a backend.Journal in memory.
type memJournal struct{ content *backend.JournalContent }

func (j *memJournal) Begin(_ context.Context, lineage string, serial uint64) error {
	j.content = &backend.JournalContent{Lineage: lineage, Serial: serial}
	return nil
}

func (j *memJournal) Append(_ context.Context, rec []byte) error {
	j.content.Records = append(j.content.Records, append([]byte(nil), rec...))
	return nil
}

func (j *memJournal) Load(context.Context) (*backend.JournalContent, error) { return j.content, nil }

func (j *memJournal) Discard(context.Context) error {
	j.content = nil
	return nil
}

// journalStore is a countingStore that keeps a journal.
type journalStore struct {
	countingStore
	j memJournal
}

func (s *journalStore) Journal() backend.Journal { return &s.j }

// TestWriteStartCountsNoSerial: the state an apply starts from takes no
// serial of its own, so that the apply's state is one serial past the
// stored one (serial 1 after a first apply), as in OpenTofu; and whenever
// the run stops, the stored snapshot plus its journal give the apply's
// state.
func TestWriteStartCountsNoSerial(t *testing.T) {
	ctx := context.Background()
	addr, set, provider := dataAddr, setData, testProvider
	// stored returns a store holding s (nothing when s is nil) and the state read from it.
	stored := func(t *testing.T, s *state.State) (*journalStore, *state.State) {
		inner, err := inmem.New().Store(ctx, backend.DefaultWorkspace)
		if err != nil {
			t.Fatal(err)
		}
		store := &journalStore{countingStore: countingStore{Store: inner}}
		if s == nil {
			return store, state.New()
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
		return store, read
	}
	// recovered is what the next run reads: the snapshot with its journal replayed.
	recovered := func(t *testing.T, store *journalStore) *state.State {
		data, err := store.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		s, err := statefile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, ds := Replay(ctx, store, s); ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		return s
	}
	ids := func(s *state.State) map[string]string {
		got := map[string]string{}
		for _, oa := range s.Objects() {
			got[oa.String()] = string(s.Object(oa).AttrsJSON)
		}
		return got
	}
	sameObjects := func(t *testing.T, what string, got, want *state.State) {
		t.Helper()
		g, w := ids(got), ids(want)
		if len(g) != len(w) {
			t.Errorf("%s: objects %v, want %v", what, g, w)
			return
		}
		for k, v := range w {
			if g[k] != v {
				t.Errorf("%s: objects %v, want %v", what, g, w)
				return
			}
		}
	}
	older := func() *state.State {
		s := state.New()
		s.Lineage, s.Serial = "b7c4", 4
		set(s, "kept", "k")
		set(s, "gone", "g")
		return s
	}

	tests := []struct {
		name  string
		prior *state.State // the stored state; nil for none
		// refresh changes the state read into the one the apply starts from.
		refresh func(s *state.State)
		// apply changes it as the apply's operations do.
		apply func(s *state.State)
		// wantStartSerial is the stored serial after WriteStart, wantSerial
		// after the apply's final WriteState; wantWrites counts snapshots.
		wantStartSerial, wantSerial uint64
		wantWrites                  int
	}{
		{name: "first apply", refresh: func(*state.State) {}, apply: func(s *state.State) { set(s, "a", "1") },
			wantStartSerial: 0, wantSerial: 1, wantWrites: 2},
		{name: "first apply that creates nothing", refresh: func(*state.State) {}, apply: func(*state.State) {},
			wantStartSerial: 0, wantSerial: 1, wantWrites: 2},
		{name: "refresh unchanged", prior: older(), refresh: func(*state.State) {}, apply: func(s *state.State) { set(s, "a", "1") },
			wantStartSerial: 4, wantSerial: 5, wantWrites: 1},
		{name: "refresh found an object gone", prior: older(), refresh: func(s *state.State) { s.SetObject(addr("gone"), nil, provider) },
			apply: func(s *state.State) { set(s, "a", "1") }, wantStartSerial: 4, wantSerial: 5, wantWrites: 1},
		{name: "refresh found an object gone, the apply made it again", prior: older(),
			refresh: func(s *state.State) { s.SetObject(addr("gone"), nil, provider) },
			apply:   func(s *state.State) { set(s, "gone", "g") }, wantStartSerial: 4, wantSerial: 4, wantWrites: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, s := stored(t, tt.prior)
			w := NewWriter(store, s)
			tt.refresh(s)
			start := s.DeepCopy()
			if err := w.WriteStart(ctx, s); err != nil {
				t.Fatal(err)
			}
			// A run killed here leaves the state it started from.
			atStart := recovered(t, store)
			if atStart.Serial != tt.wantStartSerial {
				t.Errorf("after WriteStart: stored serial %d, want %d", atStart.Serial, tt.wantStartSerial)
			}
			sameObjects(t, "after WriteStart", atStart, start)

			tt.apply(s)
			if err := w.WriteChanges(ctx, s, s.Objects(), true); err != nil {
				t.Fatal(err)
			}
			// A run killed here leaves the apply's state.
			sameObjects(t, "after WriteChanges", recovered(t, store), s)

			if err := w.WriteState(ctx, s); err != nil {
				t.Fatal(err)
			}
			final := recovered(t, store)
			if final.Serial != tt.wantSerial || store.writes != tt.wantWrites {
				t.Errorf("final: stored serial %d after %d snapshots, want %d after %d", final.Serial, store.writes, tt.wantSerial, tt.wantWrites)
			}
			sameObjects(t, "final", final, s)
			if store.j.content != nil {
				t.Errorf("the journal was left after the final snapshot: %d records", len(store.j.content.Records))
			}
		})
	}
}
