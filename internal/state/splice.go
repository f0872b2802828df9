package state

import (
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// SplicedDependencies returns deps with removed replaced by removed's own
// recorded dependencies (repl), sorted as recorded dependencies are, without
// self: what an object that depended on a resource now gone depends on
// through it. deps is not modified; it is returned as is when it does not
// name removed.
func SplicedDependencies(deps []addrs.AbsResource, removed addrs.AbsResource, repl []addrs.AbsResource, self addrs.AbsResource) []addrs.AbsResource {
	if !slices.Contains(deps, removed) {
		return deps
	}
	out := make([]addrs.AbsResource, 0, len(deps)+len(repl))
	for _, d := range deps {
		if d != removed {
			out = append(out, d)
		}
	}
	for _, d := range repl {
		if d != self && d != removed {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b addrs.AbsResource) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(out)
}

// HasObjectsOf reports whether s holds an object of resource r (given
// without module instance keys, as recorded dependencies name it) in any
// instance of its module.
func (s *State) HasObjectsOf(r addrs.AbsResource) bool {
	for ra, rs := range s.Resources {
		if ra.Resource != r.Resource || ra.Unkeyed() != r {
			continue
		}
		for _, inst := range rs.Instances {
			if inst.HasObjects() {
				return true
			}
		}
	}
	return false
}

// SpliceRemoved replaces removed, a resource without objects left in s, by
// repl in the recorded dependencies of every object of s that names it.
// Objects are immutable: a changed one is replaced by a copy. It returns
// the objects changed.
func (s *State) SpliceRemoved(removed addrs.AbsResource, repl []addrs.AbsResource) []addrs.ObjectAddr {
	var changed []addrs.ObjectAddr
	splice := func(obj *Object, self addrs.AbsResource) *Object {
		spliced := SplicedDependencies(obj.Dependencies, removed, repl, self)
		if slices.Equal(spliced, obj.Dependencies) {
			return obj
		}
		cp := *obj
		cp.Dependencies = spliced
		return &cp
	}
	for ra, rs := range s.Resources {
		self := ra.Unkeyed()
		for k, inst := range rs.Instances {
			if inst.Current != nil {
				if obj := splice(inst.Current, self); obj != inst.Current {
					inst.Current = obj
					changed = append(changed, addrs.ObjectAddr{Instance: ra.Instance(k)})
				}
			}
			for dk, d := range inst.Deposed {
				if obj := splice(d, self); obj != d {
					inst.Deposed[dk] = obj
					changed = append(changed, addrs.ObjectAddr{Instance: ra.Instance(k), Deposed: dk})
				}
			}
		}
	}
	return changed
}
