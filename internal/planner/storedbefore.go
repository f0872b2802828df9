package planner

import (
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// storeBefore keeps delete c's prior value, prior, encoded as obj, the
// object it was planned from (plan.ResourceInstanceChange.StoreBefore),
// when obj decodes to it: when refreshing left obj as recorded (the
// refreshed state still holds it) at the schema's version, and the
// provider read it back unchanged. A provider's upgrade of an object at
// its own version may still normalize it, so obj is decoded once and
// compared, except for the built-in provider, whose upgrade decodes the
// recorded JSON with the schema's type. Otherwise Before stays decoded.
func (p *planner) storeBefore(c *plan.ResourceInstanceChange, obj *state.Object, sch provider.Schema, prior cty.Value) {
	if obj == nil || obj.AttrsJSON == nil || sch.Block == nil || obj.SchemaVersion != uint64(sch.Version) {
		return
	}
	p.mu.Lock()
	same := p.refreshed.Object(c.ObjectAddr()) == obj
	p.mu.Unlock()
	if !same {
		return
	}
	if !c.ProviderConfig.Provider.IsBuiltIn() {
		v, err := obj.Decode(sch.Block.ImpliedType())
		if err != nil || !v.RawEquals(unmarked(prior)) {
			return
		}
	}
	c.StoreBefore(obj, sch.Block)
}
