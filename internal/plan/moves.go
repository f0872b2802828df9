package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
)

// impliedMoves applies the instance moves OpenTofu implies when count is
// added to or removed from a resource that already has an object
// (refactoring.ImpliedMoveStatements): a resource with count takes its
// no-key instance as [0], and a resource with neither count nor for_each
// takes [0] as its no-key instance, current and deposed objects alike. A
// move whose target address already has objects is not made, and a warning
// names it, as OpenTofu does; the object left behind is then deleted.
//
// prior is not modified: when anything moves, the result is a copy.
func impliedMoves(cfg *config.Module, prior *state.State) (*state.State, diag.Diagnostics) {
	type move struct {
		res      addrs.AbsResource
		from, to addrs.InstanceKey
	}
	var moves []move
	for ra, rs := range prior.Resources {
		r := cfg.ConfigResource(ra.InConfig())
		if r == nil {
			continue
		}
		switch {
		case r.Count != nil:
			if rs.Instances[addrs.NoKey] != nil {
				moves = append(moves, move{ra, addrs.NoKey, addrs.IntKey(0)})
			}
		case r.ForEach == nil:
			if rs.Instances[addrs.IntKey(0)] != nil {
				moves = append(moves, move{ra, addrs.IntKey(0), addrs.NoKey})
			}
		}
	}
	if len(moves) == 0 {
		return prior, nil
	}
	slices.SortFunc(moves, func(a, b move) int { return a.res.Compare(b.res) })

	moved := prior.DeepCopy()
	var blocked []string
	for _, m := range moves {
		rs := moved.Resources[m.res]
		if rs.Instances[m.to].HasObjects() {
			blocked = append(blocked, fmt.Sprintf("\n  - %s could not move to %s", m.res.Instance(m.from), m.res.Instance(m.to)))
			continue
		}
		rs.Instances[m.to] = rs.Instances[m.from]
		delete(rs.Instances, m.from)
	}
	if len(blocked) == 0 {
		return moved, nil
	}
	return moved, diag.Diagnostics{{Severity: diag.Warning, Summary: "Unresolved resource instance address changes",
		Detail: "rig tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:" +
			strings.Join(blocked, "") +
			"\n\nrig has planned to destroy these objects. If rig's proposed changes aren't appropriate, you must first resolve the conflicts using the \"rig state\" subcommands and then create a new plan."}}
}
