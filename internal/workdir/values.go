package workdir

import (
	"context"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// StateEvaluation loads what the console evaluates against without a
// plan: the configuration, the state's objects (read without the lock) and
// the root variables (args, and ask for the required ones still unset).
// The options' provider set decodes the objects; the caller closes it.
// files are the variable files read, for diagnostics; the configuration
// (opts.Config) is there for them even when there are errors.
func (d *Dir) StateEvaluation(ctx context.Context, args []VarArg, ask Asker) (opts eval.Options, files map[string][]byte, ds diag.Diagnostics) {
	cfg, ds := d.LoadConfig()
	if ds.HasErrors() {
		return eval.Options{Config: cfg}, nil, ds
	}
	s, more := d.CurrentState(ctx, cfg)
	if ds = ds.Append(more); ds.HasErrors() {
		return eval.Options{Config: cfg}, nil, ds
	}
	given, files, more := d.Variables(cfg, args, ask)
	ds = ds.Append(more)
	set := provider.NewSet(d.ProviderFactories())
	variables := map[string]cty.Value{}
	for _, name := range slices.Sorted(maps.Keys(cfg.Variables)) {
		v := cfg.Variables[name]
		val, more := eval.PrepareVariable(v, given[name].Value, v.DeclRange, "the root module")
		if v.Required() && given[name].Value == cty.NilVal {
			more = nil // an unset required variable is unknown
		}
		ds = ds.Append(more)
		variables[name] = val
	}
	return eval.Options{Config: cfg, Variables: variables, Resources: StateValues(ctx, cfg, s, set), Providers: set}, files, ds
}

// stateValues implements eval.ResourceValues with the objects of a state,
// decoded with their providers' schemas (or, for a provider that cannot
// start, with the types their JSON implies). A resource declared but not
// in the state has no instances.
type stateValues struct {
	whole map[addrs.AbsResource]cty.Value
}

// StateValues are the values of the objects of s, as expressions of cfg
// see them, decoded with the schemas of set's providers.
func StateValues(ctx context.Context, cfg *config.Module, s *state.State, set *provider.Set) eval.ResourceValues {
	return wholeValues(cfg, stateInstanceValues(ctx, s, set))
}

// PlannedValues is StateValues for what a plan plans: each object's
// planned value (unknown in part or whole where the plan cannot know it),
// the prior value of an object left as it is, and no object for one the
// plan deletes or forgets.
func PlannedValues(ctx context.Context, cfg *config.Module, p *plan.Plan, set *provider.Set) eval.ResourceValues {
	vals := stateInstanceValues(ctx, p.PriorState, set)
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
			vals[res][c.Addr.Resource.Key] = c.After
		}
	}
	return wholeValues(cfg, vals)
}

// stateInstanceValues decodes the current object of every instance of s,
// by resource then instance key.
func stateInstanceValues(ctx context.Context, s *state.State, set *provider.Set) map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value {
	out := map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value{}
	if s == nil {
		return out
	}
	for addr, rs := range s.Resources {
		var blk *provider.Block
		if sch, ds := set.Schemas(ctx, rs.ProviderConfig.Provider); !ds.HasErrors() {
			byType := sch.ResourceTypes
			if addr.Resource.Mode == addrs.Data {
				byType = sch.DataSources
			}
			if rsch, ok := byType[addr.Resource.Type]; ok && rsch.Block != nil {
				blk = rsch.Block
			}
		}
		vals := map[addrs.InstanceKey]cty.Value{}
		for k, inst := range rs.Instances {
			if inst.Current == nil {
				continue
			}
			// Sensitive where the state records it and the schema says so.
			v, err := recordedValue(rs, inst.Current, blk)
			if err != nil {
				continue
			}
			vals[k] = v
		}
		out[addr] = vals
	}
	return out
}

// wholeValues makes each resource's value from its instances' values: an
// object for a single instance, a tuple or an object keyed by for_each
// key, as its configuration's count or for_each says.
func wholeValues(cfg *config.Module, instances map[addrs.AbsResource]map[addrs.InstanceKey]cty.Value) *stateValues {
	modes := map[addrs.ConfigResource]eval.ExpansionMode{}
	for _, mod := range cfg.AllModules() {
		for _, r := range mod.Resources() {
			modes[addrs.ConfigResource{Module: mod.Path, Resource: r.Addr}] = eval.ModeOf(r.Count, r.ForEach, r.Enabled)
		}
	}
	sv := &stateValues{whole: map[addrs.AbsResource]cty.Value{}}
	for addr, vals := range instances {
		exp := eval.Expansion{Mode: modes[addr.InConfig()]}
		for k := range vals {
			exp.Keys = append(exp.Keys, k)
		}
		slices.SortFunc(exp.Keys, addrs.InstanceKey.Compare)
		sv.whole[addr] = exp.WholeValue(vals)
	}
	return sv
}

// recordedValue decodes a recorded object as expressions see it: with its
// schema's type and marks (plan.ObjectValue), or without a schema by the
// shape of its JSON, sensitive where the state records it.
func recordedValue(rs *state.Resource, obj *state.Object, blk *provider.Block) (cty.Value, error) {
	if blk != nil {
		return plan.ObjectValue(rs, obj, blk)
	}
	ty, err := ctyjson.ImpliedType(obj.AttrsJSON)
	if err != nil {
		return cty.NilVal, err
	}
	v, err := obj.Decode(ty)
	if err != nil {
		return cty.NilVal, err
	}
	return marks.MarkPaths(v, plan.RecordedPaths(obj, rs.ProviderConfig.Provider, rs.Addr.Resource.Type)), nil
}

// ResourceValue implements eval.ResourceValues.
func (sv *stateValues) ResourceValue(addr addrs.AbsResource) cty.Value {
	if v, ok := sv.whole[addr]; ok {
		return v
	}
	return cty.DynamicVal
}
