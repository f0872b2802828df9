package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/zclconf/go-cty/cty"
)

var pc = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

func obj(id string) *state.Object {
	return &state.Object{AttrsJSON: []byte(`{"id":"` + id + `"}`), Dependencies: []addrs.AbsResource{res("base").ContainingResource()}}
}

func res(name string) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
}

func marshal(t *testing.T, s *state.State) []byte {
	t.Helper()
	b, err := statefile.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReplayRebuildsState: appending changes and replaying them onto the
// state the journal started from gives the same state as the live one.
func TestReplayRebuildsState(t *testing.T) {
	base := state.New()
	base.Serial = 7
	base.SetObject(addrs.ObjectAddr{Instance: res("gone")}, obj("g"), pc)
	base.SetObject(addrs.ObjectAddr{Instance: res("kept")}, obj("k"), pc)
	live := base.DeepCopy()
	path := filepath.Join(t.TempDir(), "terraform.tfstate.journal")
	w, err := Create(path, base.Lineage, base.Serial)
	if err != nil {
		t.Fatal(err)
	}

	a := addrs.ObjectAddr{Instance: res("a")}
	live.SetObject(a, obj(`a1 \n  \"x\"  \t`), pc) // escapes and spaces survive the one-line record
	if err := w.Append(live, []addrs.ObjectAddr{a}, false); err != nil {
		t.Fatal(err)
	}
	dk := live.Depose(res("a"))
	live.SetObject(a, obj("a2"), pc)
	gone := addrs.ObjectAddr{Instance: res("gone")}
	live.SetObject(gone, nil, pc)
	live.Outputs["x"] = state.OutputValue{Value: cty.StringVal("v\n  w")}
	if err := w.Append(live, []addrs.ObjectAddr{a, {Instance: res("a"), Deposed: dk}, gone}, true); err != nil {
		t.Fatal(err)
	}
	// A batch that only removes.
	live.SetObject(addrs.ObjectAddr{Instance: res("kept")}, nil, pc)
	if err := w.Append(live, []addrs.ObjectAddr{{Instance: res("kept")}}, false); err != nil {
		t.Fatal(err)
	}
	before := w.Size()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	// A torn write after the last acknowledged record is ignored.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"set":{"versi`)
	f.Close()

	replayed := base.DeepCopy()
	n, err := Replay(path, replayed)
	if err != nil || n != 3 {
		t.Fatalf("Replay = %d, %v; want 3 records", n, err)
	}
	if got, want := marshal(t, replayed), marshal(t, live); !bytes.Equal(got, want) {
		t.Fatalf("replayed state differs:\n%s\nwant\n%s", got, want)
	}
	if before <= 0 {
		t.Fatal("journal size not tracked")
	}
}

// TestReplayRefusesOtherState: a journal for another serial or lineage is not applied.
func TestReplayRefusesOtherState(t *testing.T) {
	s := state.New()
	path := filepath.Join(t.TempDir(), "j")
	w, err := Create(path, s.Lineage, 3)
	if err != nil {
		t.Fatal(err)
	}
	s2 := s.DeepCopy()
	s2.SetObject(addrs.ObjectAddr{Instance: res("a")}, obj("a"), pc)
	_ = w.Append(s2, []addrs.ObjectAddr{{Instance: res("a")}}, false)
	w.Close()
	if n, err := Replay(path, s); err == nil || n != 0 || len(s.Resources) != 0 {
		t.Fatalf("Replay onto serial %d = %d, %v", s.Serial, n, err)
	}
	if n, err := Replay(filepath.Join(t.TempDir(), "missing"), s); err != nil || n != 0 {
		t.Fatalf("missing journal: %d, %v", n, err)
	}
}

// BenchmarkAppend shows that appending one object's result does not grow
// with the size of the state.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(map[int]string{100: "state=100", 10000: "state=10000"}[n], func(b *testing.B) {
			s := state.New()
			for i := range n {
				s.SetObject(addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(addrs.RootModule)}, obj("x"), pc)
			}
			w, err := Create(filepath.Join(b.TempDir(), "j"), s.Lineage, s.Serial)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			changed := []addrs.ObjectAddr{{Instance: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(0)).Absolute(addrs.RootModule)}}
			b.ResetTimer()
			for b.Loop() {
				if err := w.Append(s, changed, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
