package apply

import (
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// TestSetIndexLookup checks that the index finds what the map of sets
// holds, whatever the order of the lookups, and nothing else.
func TestSetIndexLookup(t *testing.T) {
	addr := func(mod addrs.ModuleInstance, mode addrs.ResourceMode, typ, name string) addrs.AbsResource {
		return addrs.Resource{Mode: mode, Type: typ, Name: name}.Absolute(mod)
	}
	held := []addrs.AbsResource{
		addr("", addrs.Managed, "t", "a"),
		addr("", addrs.Managed, "t", "b"),
		addr("", addrs.Data, "t", "a"),
		addr("", addrs.Managed, "u", "a"),
		addr("module.m", addrs.Managed, "t", "a"),
		addr(`module.m["k"]`, addrs.Managed, "t", "b"),
	}
	sets := map[addrs.AbsResource]*resourceSets{}
	for _, ra := range held {
		sets[ra] = &resourceSets{}
	}
	missing := []addrs.AbsResource{
		addr("", addrs.Managed, "t", "c"),
		addr("", addrs.Data, "t", "b"),
		addr("", addrs.Ephemeral, "t", "a"),
		addr("module.n", addrs.Managed, "t", "a"),
		addr("", addrs.Managed, "v", "a"),
	}
	x := newSetIndex(sets)
	// Every order of groups: the same group twice, a missing group
	// between two present ones, a missing name in a present group.
	seq := []addrs.AbsResource{held[0], held[1], missing[0], held[1], missing[4], missing[4], held[0], held[2], missing[1],
		held[3], missing[3], held[4], held[5], missing[2], held[5], held[0]}
	for i, ra := range seq {
		if got, want := x.lookup(ra), sets[ra]; got != want {
			t.Errorf("lookup %d of %s: got %p, want %p", i, ra, got, want)
		}
	}
}
