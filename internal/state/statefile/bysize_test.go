package statefile

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// TestWriteFewLargeObjects checks a state of fewer instances than
// parallelInstances whose objects record hundreds of dependencies each:
// it is encoded in pieces by its size, to the document a single pass
// writes.
func TestWriteFewLargeObjects(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	var deps []addrs.AbsResource
	for i := range 600 {
		deps = append(deps, addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("dep%d", i)}.Absolute(addrs.RootModule))
	}
	s := state.New()
	for r := range 120 {
		ra := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", r)}.Absolute(addrs.RootModule)
		for i := range 1 + r%3 {
			addr := addrs.ObjectAddr{Instance: ra.Instance(addrs.IntKey(i))}
			s.SetObject(addr, &state.Object{AttrsJSON: []byte(fmt.Sprintf(`{"id":"%d-%d"}`, r, i)), Dependencies: deps[:(r*7+i)%len(deps)]}, pc)
		}
	}
	sorted := make([]*state.Resource, 0, len(s.Resources))
	for _, r := range s.Resources {
		sorted = append(sorted, r)
	}
	if instanceCount(sorted) >= parallelInstances || !largerThan(sorted, parallelBytes) {
		t.Fatalf("%d instances: not a state encoded in pieces by its size alone", instanceCount(sorted))
	}
	got, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := referenceMarshal(t, s); !bytes.Equal(got, want) {
		t.Fatalf("Marshal differs from the reference (-ref +got):\n%s", cmp.Diff(string(want), string(got)))
	}
	var w chunkWriter
	if err := Write(&w, s); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.Join(w.chunks, nil), got) {
		t.Error("Write differs from Marshal")
	}
}
