package state

import (
	"slices"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// TestAllObjectsAreObjects: AllObjects yields what Objects lists.
func TestAllObjectsAreObjects(t *testing.T) {
	s := New()
	pc := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("t")}
	for i, name := range []string{"b", "a", "c"} {
		addr := addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "t", Name: name}}.Instance(addrs.IntKey(i))
		s.SetObject(addrs.ObjectAddr{Instance: addr}, &Object{AttrsJSON: []byte(`{}`)}, pc)
		if name == "a" {
			s.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: "00000001"}, &Object{AttrsJSON: []byte(`{}`)}, pc)
		}
	}
	got := slices.SortedFunc(s.AllObjects(), addrs.ObjectAddr.Compare)
	if want := s.Objects(); !slices.Equal(got, want) || len(want) != 4 {
		t.Errorf("AllObjects yields %v, Objects lists %v", got, want)
	}
}
