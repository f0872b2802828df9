package planner

import (
	"context"
	"slices"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// RecordedValues are the values of the resources a state records, for
// evaluating expressions against it outside a plan or an apply (a test's
// assertions): each resource as a whole, an object, a tuple for count or
// an object for for_each, as cfg expands it. A resource the state does not
// record is unknown. It is safe for concurrent use once built.
type RecordedValues struct {
	whole map[addrs.AbsResource]cty.Value
	// ephemeral holds, per ephemeral resource, the value it has outside a
	// run, which opens none (ephemeralValues).
	ephemeral map[addrs.ConfigResource]cty.Value
}

// StateValues returns the values of the objects s records, decoded with
// the schemas of set's providers (or by the shape of their JSON where a
// schema is missing).
func StateValues(ctx context.Context, cfg *config.Module, s *state.State, set *provider.Set) *RecordedValues {
	rv := wholeValues(cfg, instanceValues(ctx, s, set))
	rv.ephemeral = ephemeralValues(ctx, cfg, set)
	return rv
}

// PlannedValues returns the values the objects will have once p is
// applied, as far as planning knows them: the prior state's objects with
// each change's planned value, unknown where only the apply will tell.
func PlannedValues(ctx context.Context, cfg *config.Module, p *plan.Plan, set *provider.Set) *RecordedValues {
	vals := instanceValues(ctx, p.PriorState, set)
	for _, c := range p.Changes {
		if c.Deposed != addrs.NotDeposed {
			continue
		}
		res := c.Addr.ContainingResource()
		switch c.Action {
		case plan.Delete, plan.Forget:
			delete(vals[res], c.Addr.Resource.Key)
		default:
			if c.After == cty.NilVal {
				continue
			}
			if vals[res] == nil {
				vals[res] = map[addrs.InstanceKey]cty.Value{}
			}
			vals[res][c.Addr.Resource.Key] = resourceBlock(ctx, set, res, c.ProviderConfig.Provider).MarkSensitive(c.After)
		}
	}
	rv := wholeValues(cfg, vals)
	rv.ephemeral = ephemeralValues(ctx, cfg, set)
	return rv
}

// ResourceValue implements eval.ResourceValues.
func (rv *RecordedValues) ResourceValue(addr addrs.AbsResource) cty.Value {
	if v, ok := rv.whole[addr]; ok {
		return v
	}
	if v, ok := rv.ephemeral[addr.InConfig()]; ok {
		return v
	}
	return cty.DynamicVal
}

// ephemeralValues returns the value of each ephemeral resource of cfg
// outside a plan or an apply, which is never opened: as in OpenTofu, an
// object of unknown attributes, marked ephemeral as a whole and sensitive
// where its schema says (the console prints it "(ephemeral value)" and its
// attributes "(known after apply)"); one with count, for_each or enabled,
// or whose schema is missing, is wholly unknown.
func ephemeralValues(ctx context.Context, cfg *config.Module, set *provider.Set) map[addrs.ConfigResource]cty.Value {
	out := map[addrs.ConfigResource]cty.Value{}
	for _, m := range cfg.AllModules() {
		for _, r := range m.EphemeralResources {
			addr := addrs.ConfigResource{Module: m.Path, Resource: r.Addr}
			out[addr] = cty.DynamicVal.Mark(marks.Ephemeral)
			if r.Count != nil || r.ForEach != nil || r.Enabled != nil || set == nil {
				continue
			}
			sch, ds := set.Schemas(ctx, ResolveProvider(m, r).Config.Provider)
			if ds.HasErrors() {
				continue
			}
			if s, ok := sch.EphemeralResources[r.Addr.Type]; ok && s.Block != nil {
				out[addr] = marks.MarkEphemeral(s.Block.MarkSensitive(unknownObject(s.Block)))
			}
		}
	}
	return out
}

// unknownObject returns an object of b's type whose attributes and nested
// blocks are all unknown.
func unknownObject(b *provider.Block) cty.Value {
	ty := b.ImpliedType()
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		vals[name] = cty.UnknownVal(at)
	}
	return cty.ObjectVal(vals)
}

func instanceValues(ctx context.Context, s *state.State, set *provider.Set) map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value {
	out := map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value{}
	if s == nil {
		return out
	}
	for addr, rs := range s.Resources {
		blk := resourceBlock(ctx, set, addr, rs.ProviderConfig.Provider)
		vals := map[addrs.InstanceKey]cty.Value{}
		for k, inst := range rs.Instances {
			if inst.Current == nil {
				continue
			}
			if blk != nil {
				if v, err := plan.ObjectValue(rs, inst.Current, blk); err == nil {
					vals[k] = v
				}
				continue
			}
			// Without a schema, the value has the type its JSON implies,
			// with the sensitive paths the state records.
			t, err := ctyjson.ImpliedType(inst.Current.AttrsJSON)
			if err != nil {
				continue
			}
			v, err := inst.Current.Decode(t)
			if err != nil {
				continue
			}
			vals[k] = marks.MarkPaths(v, plan.RecordedPaths(inst.Current, rs.ProviderConfig.Provider, addr.Resource.Type))
		}
		out[addr] = vals
	}
	return out
}

// resourceBlock returns the schema block of resource addr's type, nil when
// its provider does not give it.
func resourceBlock(ctx context.Context, set *provider.Set, addr addrs.AbsResource, p addrs.Provider) *provider.Block {
	if set == nil {
		return nil
	}
	sch, ds := set.Schemas(ctx, p)
	if ds.HasErrors() {
		return nil
	}
	byType := sch.ResourceTypes
	if addr.Resource.Mode == addrs.Data {
		byType = sch.DataSources
	}
	if rsch, ok := byType[addr.Resource.Type]; ok {
		return rsch.Block
	}
	return nil
}

func wholeValues(cfg *config.Module, instances map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value) *RecordedValues {
	modes := map[addrs.ConfigResource]eval.ExpansionMode{}
	for _, mod := range cfg.AllModules() {
		for _, r := range mod.Resources() {
			modes[addrs.ConfigResource{Module: mod.Path, Resource: r.Addr}] = eval.ModeOf(r.Count, r.ForEach, r.Enabled)
		}
	}
	rv := &RecordedValues{whole: map[addrs.AbsResource]cty.Value{}}
	for addr, vals := range instances {
		exp := eval.Expansion{Mode: modes[addr.InConfig()]}
		for k := range vals {
			exp.Keys = append(exp.Keys, k)
		}
		slices.SortFunc(exp.Keys, addrs.InstanceKey.Compare)
		rv.whole[addr] = exp.WholeValue(vals)
	}
	return rv
}
