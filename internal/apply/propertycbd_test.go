package apply

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// closure returns, for each present resource of rc, every resource it
// refers to directly or transitively: the dependencies its object records
// once rc is applied.
func (rc randomConfig) closure() [][]int {
	out := make([][]int, len(rc.present))
	// Refs only point to lower indexes: one upward sweep is transitive.
	for i, ok := range rc.present {
		if !ok {
			continue
		}
		var deps []int
		for _, d := range rc.refs[i] {
			deps = append(deps, d)
			deps = append(deps, out[d]...)
		}
		slices.Sort(deps)
		out[i] = slices.Compact(deps)
	}
	return out
}

// recordedObjects is what the state records of each resource r0…rN:
// whether it has an object, and that object's create_before_destroy and
// dependencies.
type recordedObjects struct {
	present    []bool
	cbd        []bool
	deps       [][]int
	replaceKey []int
}

// recordedIn returns what st records of the objects of cur's resources
// (the configuration just applied, whose replacement keys they have).
func recordedIn(st *state.State, cur randomConfig) recordedObjects {
	n := len(cur.present)
	rec := recordedObjects{present: make([]bool, n), cbd: make([]bool, n), deps: make([][]int, n), replaceKey: slices.Clone(cur.replaceKey)}
	for i := range n {
		obj := st.Object(addrs.ObjectAddr{Instance: thing(fmt.Sprintf("r%d", i))})
		if obj == nil {
			continue
		}
		rec.present[i], rec.cbd[i] = true, obj.CreateBeforeDestroy
		for _, d := range obj.Dependencies {
			var j int
			if _, err := fmt.Sscanf(d.Resource.Name, "r%d", &j); err == nil {
				rec.deps[i] = append(rec.deps[i], j)
			}
		}
	}
	return rec
}

// plannedCBD returns, for each resource, whether rig plans it
// create_before_destroy when it plans cur against the objects rec records
// (cur with nothing present: a destroy plan). That is the configuration's
// own setting or inherited one (effectiveCBD), completed through recorded
// dependencies as the notes' forced create_before_destroy requires: an
// object deleted create_before_destroy — an orphan recorded so, or the old
// object of a create-first replacement — passes the setting on to every
// resource it recorded depending on, since its delete waits for their
// creates; a resource that becomes create_before_destroy passes it on to
// what it depends on in turn. An object updated in place passes nothing on
// through the dependencies it no longer has.
func plannedCBD(rec recordedObjects, cur randomConfig) []bool {
	n := len(cur.present)
	forced := make([]bool, n)
	var queue []int
	force := func(i int) {
		if !forced[i] {
			forced[i] = true
			queue = append(queue, i)
		}
	}
	for i, cbd := range cur.effectiveCBD() {
		if cbd && cur.present[i] {
			force(i)
		}
	}
	recorded := func(i int) bool { return i < len(rec.present) && rec.present[i] }
	for i := range n {
		if recorded(i) && !cur.present[i] && rec.cbd[i] {
			force(i)
		}
	}
	curDeps := cur.closure()
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		var deps []int
		switch {
		case cur.present[i]:
			deps = curDeps[i]
			if recorded(i) && rec.replaceKey[i] != cur.replaceKey[i] {
				deps = append(slices.Clone(deps), rec.deps[i]...)
			}
		case recorded(i):
			deps = rec.deps[i]
		}
		for _, d := range deps {
			if cur.present[d] || recorded(d) {
				force(d)
			}
		}
	}
	return forced
}

// absent is the configuration of a destroy plan over n resources: none present.
func absent(n int) randomConfig {
	return randomConfig{present: make([]bool, n), refs: make([][]int, n), value: make([]int, n), replaceKey: make([]int, n), cbd: make([]bool, n)}
}

// checkPlannedCBD checks that every change of p to an object of rI is
// create_before_destroy as want[i] says.
func checkPlannedCBD(t *testing.T, p *plan.Plan, want []bool) {
	t.Helper()
	for _, c := range p.Changes {
		var i int
		if _, err := fmt.Sscanf(c.Addr.Resource.Resource.Name, "r%d", &i); err != nil || i >= len(want) {
			t.Fatalf("unexpected change of %s", c.Addr)
		}
		if c.CreateBeforeDestroy != want[i] {
			t.Errorf("%s (%s) planned with create_before_destroy = %v, want %v", c.Addr, c.Action, c.CreateBeforeDestroy, want[i])
		}
	}
}
