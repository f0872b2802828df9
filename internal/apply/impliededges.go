package apply

import (
	"cmp"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// impliedEdges finds, for the create of an object, the dependencies whose
// edges into it other edges already imply, so that the operation graph
// leaves them out.
//
// OpenTofu records every resource an object depends on, transitively: in a
// graph of distinct resource blocks an object lists hundreds, and most of
// them are dependencies of its other dependencies. When X depends on E and
// on D, and E has creates (or updates) of its own, one of which depends on
// D, then D's creates and deletes already precede that operation of E,
// which precedes X: the edges from D into X add no order. They are left
// out, and only they:
//
//   - the middle resource E must have a create of its own: a dependency
//     with nothing to apply, or only deletes, orders nothing in between;
//   - the edge into the create of a create_before_destroy delete
//     (RuleBeforeCBDDelete) goes the other way and is always kept.
//
// Every order constraint therefore holds as before, through the edges kept;
// only Graph.G has fewer edges, and its transitive reduction (the order of
// operations shown with a plan) is the same.
type impliedEdges struct {
	g     *Graph
	prior *state.State
	sets  *setIndex
	// lists holds each dependency list resolved to the sets of the
	// resources it names that have operations: lists are shared between
	// instances and resources, so each is resolved once.
	lists map[listKey][]*resourceSets
	// stamp marks the sets covered (implied) for the create being built.
	stamp   uint32
	scratch []*resourceSets
}

// listKey names a dependency list by its backing array.
type listKey struct {
	first *addrs.AbsResource
	n     int
}

func newImpliedEdges(g *Graph, prior *state.State, sets map[addrs.AbsResource]*resourceSets) *impliedEdges {
	return &impliedEdges{g: g, prior: prior, sets: newSetIndex(sets), lists: map[listKey][]*resourceSets{}}
}

// resolve returns the sets of the resources deps names that have
// operations, in deps' order.
func (im *impliedEdges) resolve(deps []addrs.AbsResource) []*resourceSets {
	if len(deps) == 0 {
		return nil
	}
	k := listKey{&deps[0], len(deps)}
	if out, ok := im.lists[k]; ok {
		return out
	}
	out := make([]*resourceSets, 0, len(deps))
	for _, d := range deps {
		if rs := im.sets.lookup(d); rs != nil {
			out = append(out, rs)
		}
	}
	im.lists[k] = out
	return out
}

// createDeps returns the sets the first create of e waits for (its
// dependencies as order() merges them), resolved once per resource. One
// create is enough: every operation after e's creates waits for all of
// them.
func (im *impliedEdges) createDeps(e *resourceSets) []*resourceSets {
	if !e.createDepsKnown {
		op := e.create.ops[0]
		c := im.g.Changes[op]
		e.createDeps = im.resolve(mergeDeps(c.Dependencies, recordedDeps(im.prior, addrs.ObjectAddr{Instance: c.Addr})))
		e.createDepsKnown = true
	}
	return e.createDeps
}

// cover marks, among deps (the sets a create of the resource own waits
// for), those whose edges into the create are implied by another
// dependency's create: afterwards implied reports them. Dependencies are
// visited longest list first, so that with transitive lists the few
// direct dependencies mark the rest; one already marked adds nothing new
// when the lists are transitive and is skipped (marking less is always
// safe).
func (im *impliedEdges) cover(deps []*resourceSets, own *resourceSets) {
	im.stamp++
	if len(deps) < 2 {
		return
	}
	cands := im.scratch[:0]
	for _, rs := range deps {
		// A dependency whose creates wait for nothing implies nothing. One
		// whose list is not shorter than the create's own may be part of a
		// cycle of recorded dependencies (an acyclic transitive list holds
		// its dependencies' lists and more): leaving it out keeps every
		// path, by induction on the lists' lengths, so a cycle is still
		// found as one.
		if rs == own || rs.create == nil {
			continue
		}
		if n := len(im.createDeps(rs)); n > 0 && n < len(deps) {
			cands = append(cands, rs)
		}
	}
	// Each round marks what the longest uncovered list covers, and drops
	// the covered candidates: with transitive lists a few rounds, one per
	// direct dependency, cover everything. Past maxPicks, the candidates
	// left are sorted once instead.
	const maxPicks = 8
	for picks := 0; len(cands) > 0; picks++ {
		if picks == maxPicks {
			slices.SortFunc(cands, func(a, b *resourceSets) int { return cmp.Compare(len(b.createDeps), len(a.createDeps)) })
			for _, e := range cands {
				if e.stamp != im.stamp {
					im.mark(e)
				}
			}
			break
		}
		n, best := 0, -1
		for _, e := range cands {
			if e.stamp == im.stamp {
				continue
			}
			if best < 0 || len(e.createDeps) > len(cands[best].createDeps) {
				best = n
			}
			cands[n] = e
			n++
		}
		if best < 0 {
			break
		}
		im.mark(cands[best])
		cands[best] = cands[n-1]
		cands = cands[:n-1]
	}
	clear(cands)
	im.scratch = cands[:0]
}

// mark marks the sets e's creates wait for as covered.
func (im *impliedEdges) mark(e *resourceSets) {
	for _, d := range e.createDeps {
		if d != e {
			d.stamp = im.stamp
		}
	}
}

// implied reports whether the edges from rs's creates and deletes into the
// create last passed to cover are implied by others.
func (im *impliedEdges) implied(rs *resourceSets) bool { return rs.stamp == im.stamp }

// connectCreate adds the edges into the create op of change c (whose
// resource's sets are own) as order() does for rules 1 and 4, leaving out
// those im finds implied.
func connectCreate(g *Graph, im *impliedEdges, preds *predecessors, op Op, c *plan.ResourceInstanceChange, own *resourceSets, prior *state.State) {
	deps := im.resolve(mergeDeps(c.Dependencies, recordedDeps(prior, addrs.ObjectAddr{Instance: c.Addr})))
	im.cover(deps, own)
	preds.reset()
	for _, rs := range deps {
		if rs == own {
			continue
		}
		if !im.implied(rs) {
			if s := rs.create; s != nil {
				preds.add(s, RuleDependency)
			}
			if s := rs.delete; s != nil {
				preds.add(s, RuleAfterDependencyDelete)
			}
		}
		if s := rs.deleteCBD; s != nil {
			g.connect(op, s.before(), RuleBeforeCBDDelete)
		}
	}
	preds.connect(g, op)
}
