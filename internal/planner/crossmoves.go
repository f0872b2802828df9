package planner

import (
	"context"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// applyCrossTypeMoves converts the objects that moved blocks took to a
// resource of another type (moved maps each instance that moved to where
// it was): the provider of the destination resource turns each current
// object into one of its type (MoveResourceState, called unconfigured, as
// Terraform and OpenTofu do), with the identity it has under that type,
// before anything reads or plans it. s is the state after the moves and
// is changed in place.
func applyCrossTypeMoves(ctx context.Context, cfg *config.Module, s *state.State, moved map[addrs.AbsResourceInstance]addrs.AbsResourceInstance, providers *provider.Set) diag.Diagnostics {
	var ds diag.Diagnostics
	tos := slices.SortedFunc(maps.Keys(moved), func(a, b addrs.AbsResourceInstance) int { return a.Compare(b) })
	for _, to := range tos {
		from := moved[to]
		if from.Resource.Resource.Type == to.Resource.Resource.Type || to.Resource.Resource.Mode != addrs.Managed {
			continue
		}
		ds = ds.Append(diag.WithAddress(crossTypeMove(ctx, cfg, s, from, to, providers), addrs.ObjectAddr{Instance: to}))
	}
	return ds
}

// crossTypeMove converts the objects of to, which was at from: its
// current object and each deposed one, each with its own identity.
func crossTypeMove(ctx context.Context, cfg *config.Module, s *state.State, from, to addrs.AbsResourceInstance, providers *provider.Set) diag.Diagnostics {
	inst := s.Instance(to)
	if inst == nil || inst.Current == nil && len(inst.Deposed) == 0 {
		return nil
	}
	m := cfg.Descendant(to.Module.Module())
	var r *config.Resource
	if m != nil {
		r = m.ResourceByAddr(to.Resource.Resource)
	}
	if r == nil {
		return diag.Diagnostics{diag.Errorf("Moved object has no configuration",
			"%s moved to %s, a resource of another type, which the configuration does not declare: rig cannot convert it without the provider of that resource.", from, to)}
	}
	sourcePC := s.ObjectProvider(to)
	targetPC := ResolveProvider(m, r).Config
	sch, ds := providers.ResourceTypeSchema(ctx, targetPC.Provider, to.Resource.Resource.Type)
	if ds.HasErrors() {
		return ds
	}
	prov, more := providers.Validator(ctx, targetPC.Provider)
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	mv := crossMove{prov: prov, sch: sch, from: from, to: to, sourcePC: sourcePC, targetPC: targetPC}
	// Every object is converted before any is recorded: a failure leaves
	// the state as it was.
	converted := map[addrs.DeposedKey]*state.Object{}
	if inst.Current != nil {
		obj, more := mv.convert(ctx, inst.Current)
		if ds = ds.Append(more); more.HasErrors() {
			return ds
		}
		converted[addrs.NotDeposed] = obj
	}
	for _, dk := range slices.Sorted(maps.Keys(inst.Deposed)) {
		obj, more := mv.convert(ctx, inst.Deposed[dk])
		if ds = ds.Append(diag.WithAddress(more, addrs.ObjectAddr{Instance: to, Deposed: dk})); more.HasErrors() {
			return ds
		}
		converted[dk] = obj
	}
	for _, dk := range slices.Sorted(maps.Keys(converted)) {
		s.SetObject(addrs.ObjectAddr{Instance: to, Deposed: dk}, converted[dk], targetPC)
	}
	return ds
}

// crossMove is one instance's move to a resource of another type.
type crossMove struct {
	prov               provider.Interface
	sch                provider.Schema
	from, to           addrs.AbsResourceInstance
	sourcePC, targetPC addrs.AbsProviderConfig
}

// convert has the destination's provider turn obj into an object of the
// destination's type, with the identity it has there.
func (mv crossMove) convert(ctx context.Context, obj *state.Object) (*state.Object, diag.Diagnostics) {
	from, to, targetPC, sch := mv.from, mv.to, mv.targetPC, mv.sch
	if obj.AttrsJSON == nil {
		return nil, diag.Diagnostics{diag.Errorf("Unsupported state format",
			"%s is recorded in the legacy flat format, which cannot be moved to a resource of another type.", from)}
	}
	req := provider.MoveRequest{
		SourceProvider: mv.sourcePC.Provider.String(), SourceTypeName: from.Resource.Resource.Type,
		SourceSchemaVersion: int64(obj.SchemaVersion), SourceStateJSON: obj.AttrsJSON, SourcePrivate: obj.Private,
		TargetTypeName: to.Resource.Resource.Type,
	}
	if obj.IdentityJSON != nil {
		req.SourceIdentityJSON = obj.IdentityJSON
		if obj.IdentitySchemaVersion != nil {
			req.SourceIdentityVersion = int64(*obj.IdentitySchemaVersion)
		}
	}
	resp := mv.prov.MoveResourceState(ctx, req)
	ds := resp.Diagnostics
	if ds.HasErrors() {
		return nil, ds
	}
	if plan.HasIdentity(resp.TargetIdentity) && !resp.TargetIdentity.IsWhollyKnown() {
		return nil, ds.Append(diag.Errorf("Provider produced invalid identity",
			"Provider %q planned an identity with unknown values for the move from %s to %s. \n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
			targetPC.Provider.ForDisplay(), from, to))
	}
	if resp.TargetState == cty.NilVal || resp.TargetState.IsNull() || !resp.TargetState.IsWhollyKnown() {
		return nil, ds.Append(diag.Errorf("Provider returned invalid value",
			"The provider %s returned an invalid value during an across type move operation to %s: it is null or contains unknown values. This is a bug in the provider; please report it.",
			targetPC.Provider.ForDisplay(), to))
	}
	attrs, err := ctyjson.Marshal(resp.TargetState, sch.Block.ImpliedType())
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to encode moved object", "rig could not encode the object of %s moved from %s: %s.", to, from, err))
	}
	converted := *obj
	converted.AttrsJSON, converted.SchemaVersion, converted.Private = attrs, uint64(sch.Version), resp.TargetPrivate
	converted.SensitiveAttributes = nil
	// The identity the object had under its former type names it no
	// more: it has the one the provider gave, or none.
	converted.IdentityJSON, converted.IdentitySchemaVersion = nil, nil
	if err := plan.SetIdentity(&converted, sch, resp.TargetIdentity); err != nil {
		return nil, ds.Append(diag.Errorf("Failed to encode moved object", "rig could not encode the identity of %s moved from %s: %s.", to, from, err))
	}
	return &converted, ds
}
