package state

import (
	"iter"

	"github.com/rig-iac/rig/internal/addrs"
)

// AllObjects yields the address of every object, current and deposed, as
// Objects lists them but in no particular order, without building and
// sorting a list.
func (s *State) AllObjects() iter.Seq[addrs.ObjectAddr] {
	return func(yield func(addrs.ObjectAddr) bool) {
		for ra, r := range s.Resources {
			for k, inst := range r.Instances {
				ia := ra.Instance(k)
				if inst.Current != nil && !yield(addrs.ObjectAddr{Instance: ia}) {
					return
				}
				for dk := range inst.Deposed {
					if !yield(addrs.ObjectAddr{Instance: ia, Deposed: dk}) {
						return
					}
				}
			}
		}
	}
}
