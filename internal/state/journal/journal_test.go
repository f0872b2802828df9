package journal

import (
	"bytes"
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

func mustRecord(t *testing.T, s *state.State, changed []addrs.ObjectAddr, outputs bool) []byte {
	t.Helper()
	rec, err := Record(nil, s, changed, outputs)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(rec, '\n') >= 0 {
		t.Fatalf("record holds a newline: %s", rec)
	}
	return rec
}

// TestReplayRebuildsState: records of the changes made to a state, replayed
// onto the state they started from, give the same state as the live one.
func TestReplayRebuildsState(t *testing.T) {
	base := state.New()
	base.Serial = 7
	base.SetObject(addrs.ObjectAddr{Instance: res("gone")}, obj("g"), pc)
	base.SetObject(addrs.ObjectAddr{Instance: res("kept")}, obj("k"), pc)
	live := base.DeepCopy()
	var records [][]byte

	a := addrs.ObjectAddr{Instance: res("a")}
	live.SetObject(a, obj(`a1 \n  \"x\"  \t`), pc) // escapes and spaces survive the one-line record
	records = append(records, mustRecord(t, live, []addrs.ObjectAddr{a}, false))
	dk := live.Depose(res("a"))
	live.SetObject(a, obj("a2"), pc)
	gone := addrs.ObjectAddr{Instance: res("gone")}
	live.SetObject(gone, nil, pc)
	live.Outputs["x"] = state.OutputValue{Value: cty.StringVal("v\n  w")}
	records = append(records, mustRecord(t, live, []addrs.ObjectAddr{a, {Instance: res("a"), Deposed: dk}, gone}, true))
	// A batch that only removes.
	live.SetObject(addrs.ObjectAddr{Instance: res("kept")}, nil, pc)
	records = append(records, mustRecord(t, live, []addrs.ObjectAddr{{Instance: res("kept")}}, false))

	replayed := base.DeepCopy()
	if err := Replay(replayed, records); err != nil {
		t.Fatal(err)
	}
	if got, want := marshal(t, replayed), marshal(t, live); !bytes.Equal(got, want) {
		t.Fatalf("replayed state differs:\n%s\nwant\n%s", got, want)
	}

	// Records appended to a buffer that already holds one are complete on their own.
	two, err := Record(append([]byte(nil), records[0]...), live, []addrs.ObjectAddr{{Instance: res("kept")}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(two[len(records[0]):], mustRecord(t, live, []addrs.ObjectAddr{{Instance: res("kept")}}, true)) {
		t.Fatalf("record after a prefix differs: %s", two)
	}
}

// TestReplayRejectsCorruptRecord: a record that is not one stops the replay
// with an error naming it.
func TestReplayRejectsCorruptRecord(t *testing.T) {
	s := state.New()
	good := mustRecord(t, func() *state.State {
		s2 := s.DeepCopy()
		s2.SetObject(addrs.ObjectAddr{Instance: res("a")}, obj("a"), pc)
		return s2
	}(), []addrs.ObjectAddr{{Instance: res("a")}}, false)
	err := Replay(s, [][]byte{good, []byte(`{"set":{"versi`)})
	if err == nil || err.Error() != "record 2 is corrupt" {
		t.Fatalf("Replay = %v, want record 2 is corrupt", err)
	}
}

// BenchmarkRecord shows that recording one object's result does not grow
// with the size of the state.
func BenchmarkRecord(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(map[int]string{100: "state=100", 10000: "state=10000"}[n], func(b *testing.B) {
			s := state.New()
			for i := range n {
				s.SetObject(addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(addrs.RootModule)}, obj("x"), pc)
			}
			changed := []addrs.ObjectAddr{{Instance: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r"}.Instance(addrs.IntKey(0)).Absolute(addrs.RootModule)}}
			var buf []byte
			for b.Loop() {
				var err error
				if buf, err = Record(buf[:0], s, changed, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReplayKeepsProviderInstances: objects recorded under instances of a
// provider configuration with for_each keep their instance through a
// record and its replay, next to one without a key.
func TestReplayKeepsProviderInstances(t *testing.T) {
	each := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform"), Alias: "each"}
	inst := func(k string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "m"}.Instance(addrs.StringKey(k)).Absolute(addrs.RootModule)
	}
	base := state.New()
	base.SetObject(addrs.ObjectAddr{Instance: inst("a")}, obj("a"), each.Instance(addrs.StringKey("eu")))
	live := base.DeepCopy()
	b := addrs.ObjectAddr{Instance: inst("b")}
	c := addrs.ObjectAddr{Instance: inst("c")}
	live.SetObject(b, obj("b"), each.Instance(addrs.StringKey("us")))
	live.SetObject(c, obj("c"), each)
	rec := mustRecord(t, live, []addrs.ObjectAddr{b, c}, false)
	replayed := base.DeepCopy()
	if err := Replay(replayed, [][]byte{rec}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"a": `.each["eu"]`, "b": `.each["us"]`, "c": `.each`} {
		want = `provider["terraform.io/builtin/terraform"]` + want
		if got := replayed.ObjectProvider(inst(k)).String(); got != want {
			t.Errorf("%s: provider %s after replay, want %s", inst(k), got, want)
		}
	}
	if got, want := marshal(t, replayed), marshal(t, live); !bytes.Equal(got, want) {
		t.Fatalf("replayed state differs:\n%s\nwant\n%s", got, want)
	}
}
