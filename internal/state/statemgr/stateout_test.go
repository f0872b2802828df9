package statemgr

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
)

// TestWriteStartWithStateOut: with -state-out, the state an apply starts
// from is written to the output file before the journal begins, so that
// after a crash the output file and its journal give every object the
// apply recorded, whether or not the refresh changed anything.
func TestWriteStartWithStateOut(t *testing.T) {
	ctx := context.Background()
	addr, provider := dataAddr, testProvider
	for _, refreshChanged := range []bool{false, true} {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "a.tfstate"), filepath.Join(dir, "b.tfstate")
		prior := state.New()
		prior.Lineage, prior.Serial, prior.TerraformVersion = "L-1", 4, version.Terraform
		prior.SetObject(addr("kept"), &state.Object{AttrsJSON: []byte(`{"id":"k"}`)}, provider)
		data, err := statefile.Marshal(prior)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(in, data, 0o600); err != nil {
			t.Fatal(err)
		}
		store, err := local.New(dir, local.Options{StatePath: in, StateOutPath: out}).Store(ctx, backend.DefaultWorkspace)
		if err != nil {
			t.Fatal(err)
		}
		read, err := statefile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		w := NewWriter(store, read)
		if refreshChanged {
			read.SetObject(addr("kept"), &state.Object{AttrsJSON: []byte(`{"id":"k2"}`)}, provider)
		}
		if err := w.WriteStart(ctx, read); err != nil {
			t.Fatal(err)
		}
		read.SetObject(addr("made"), &state.Object{AttrsJSON: []byte(`{"id":"m"}`)}, provider)
		if err := w.WriteChanges(ctx, read, []addrs.ObjectAddr{addr("made")}, false); err != nil {
			t.Fatal(err)
		}
		// The run is killed here. The next run reads the output file.
		outData, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("refresh changed %v: the output file was not written before the journal: %v", refreshChanged, err)
		}
		got, err := statefile.Parse(outData)
		if err != nil {
			t.Fatal(err)
		}
		next, err := local.New(dir, local.Options{StatePath: out}).Store(ctx, backend.DefaultWorkspace)
		if err != nil {
			t.Fatal(err)
		}
		if _, ds := Replay(ctx, next, got); ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		if got.Lineage != "L-1" || got.Object(addr("made")) == nil || got.Object(addr("kept")) == nil {
			t.Errorf("refresh changed %v: recovered lineage %q, objects %v, want L-1 with kept and made", refreshChanged, got.Lineage, got.Objects())
		}
		if fi, err := os.Stat(out); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("output file mode %v, want 0600", fi.Mode().Perm())
		}
	}
}
