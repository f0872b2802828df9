package apply

import "github.com/rig-iac/rig/internal/addrs"

// setIndex finds the sets of a resource by its name within its module,
// mode and type. Resolving a dependency list looks up every entry, and a
// list names hundreds of resources, mostly of one module and type: the
// group is compared with the previous entry's (the same strings, compared
// by pointer first), and only the name is hashed.
type setIndex struct {
	groups map[setGroup]map[string]*resourceSets
	last   setGroup
	names  map[string]*resourceSets // the group last looked up
}

// setGroup is what a resource address holds beside its name.
type setGroup struct {
	module addrs.ModuleInstance
	mode   addrs.ResourceMode
	typ    string
}

func newSetIndex(sets map[addrs.AbsResource]*resourceSets) *setIndex {
	x := &setIndex{groups: map[setGroup]map[string]*resourceSets{}}
	for ra, rs := range sets {
		g := setGroup{ra.Module, ra.Resource.Mode, ra.Resource.Type}
		names := x.groups[g]
		if names == nil {
			names = map[string]*resourceSets{}
			x.groups[g] = names
		}
		names[ra.Resource.Name] = rs
	}
	return x
}

// lookup returns the sets of ra, or nil when it has none.
func (x *setIndex) lookup(ra addrs.AbsResource) *resourceSets {
	if x.names == nil || ra.Resource.Type != x.last.typ || ra.Module != x.last.module || ra.Resource.Mode != x.last.mode {
		x.last = setGroup{ra.Module, ra.Resource.Mode, ra.Resource.Type}
		x.names = x.groups[x.last]
		if x.names == nil {
			// Not cached as the last group: the next entry looks again.
			return nil
		}
	}
	return x.names[ra.Resource.Name]
}
