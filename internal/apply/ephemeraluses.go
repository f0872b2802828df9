package apply

import (
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/planner"
)

// EphemeralUses returns, per operation of g, the ephemeral resources it
// uses (users is planner.EphemeralUsers' answer): the creates, updates and
// reads of the resources whose configuration refers to one, and every
// operation of a resource served by a provider configured from one. An
// apply opens an ephemeral resource for the first operation that uses it
// and closes it once the last one has run. The caller owns the map.
func EphemeralUses(g *Graph, users map[addrs.ConfigResource]planner.EphemeralUse) map[Op][]addrs.ConfigResource {
	if len(users) == 0 {
		return nil
	}
	out := map[Op][]addrs.ConfigResource{}
	for op, c := range g.Changes {
		if op.IsBarrier() || c == nil {
			continue
		}
		res := op.Addr.ContainingResource().InConfig()
		for r, use := range users {
			if (op.Kind != OpDelete && use.Resources[res]) || use.UsesProvider(c.ProviderConfig) {
				out[op] = append(out[op], r)
			}
		}
	}
	for op := range out {
		slices.SortFunc(out[op], addrs.ConfigResource.Compare)
	}
	return out
}
