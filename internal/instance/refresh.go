package instance

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// RefreshRequest is what Refresh needs of one recorded object.
type RefreshRequest struct {
	Addr           addrs.ObjectAddr
	Object         *state.Object
	Schema         provider.Schema
	Provider       provider.Interface
	ProviderConfig addrs.AbsProviderConfig
	// Eval and Providers give the resource's provider_meta.
	Eval      *eval.Evaluator
	Providers *provider.Set
	// SkipRefresh says the object is upgraded but not read (-refresh=false).
	SkipRefresh bool
	// Hooks observe the read (never nil).
	Hooks plan.RefreshHooks
}

// Refreshed is the result of Refresh.
type Refreshed struct {
	// Prior is the recorded object upgraded to the schema's version
	// (null when the upgrade failed).
	Prior cty.Value
	// Value is the object as it is now: null when it no longer exists,
	// Prior when it was not read or its read failed.
	Value cty.Value
	// Private is the provider's private data of Value.
	Private []byte
	// Changed says the read changed the object, its schema version or
	// its identity: the refreshed state is to record Value
	// (RefreshedObject) or, when null, no object.
	Changed bool
	// Identity is the object's resource identity, upgraded and then as
	// the read returned it; cty.NilVal when the type declares none.
	Identity cty.Value
}

// Refresh decodes a recorded object, upgrading it through its provider
// (UpgradeResourceState), and, unless refresh is skipped, reads it again
// (ReadResource).
func Refresh(ctx context.Context, req RefreshRequest) (Refreshed, diag.Diagnostics) {
	sch, prov, addr, obj := req.Schema, req.Provider, req.Addr, req.Object
	ty := sch.Block.ImpliedType()
	typeName := addr.Instance.Resource.Resource.Type
	up := prov.UpgradeResourceState(ctx, plan.IdentityUpgrade(provider.UpgradeRequest{TypeName: typeName, Version: int64(obj.SchemaVersion), RawStateJSON: obj.AttrsJSON, RawStateFlatmap: obj.AttrsFlat}, obj))
	ds := diag.WithAddress(up.Diagnostics, addr)
	if ds.HasErrors() {
		return Refreshed{Prior: cty.NullVal(ty), Value: cty.NullVal(ty)}, ds
	}
	val := up.UpgradedState
	identity := plan.IdentityOf(sch, up.UpgradedIdentity)
	out := Refreshed{Prior: val, Value: val, Private: obj.Private, Identity: identity}
	if req.SkipRefresh {
		return out, ds
	}
	meta, more := req.Eval.ProviderMeta(ctx, req.Providers, addr.Instance.Module, req.ProviderConfig.Provider, addr.Instance.Resource.Resource.String())
	if ds = ds.Append(more); more.HasErrors() {
		return out, ds
	}
	req.Hooks.PreRefresh(addr, val)
	read := prov.ReadResource(provider.WithResourceInstance(ctx, addr.Instance), provider.ReadRequest{TypeName: typeName, PriorState: val, Private: obj.Private, ProviderMeta: meta, CurrentIdentity: identity})
	if !read.Diagnostics.HasErrors() {
		req.Hooks.PostRefresh(addr, read.NewState)
	}
	ds = ds.Append(diag.WithAddress(provider.Redacted(read.Diagnostics, plan.MarkRecorded(sch.Block, val, plan.RecordedPaths(obj, req.ProviderConfig.Provider, typeName))), addr))
	if read.Diagnostics.HasErrors() {
		return out, ds
	}
	newVal := read.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(ty)
	}
	// Blocks come back in the form the schema promises, whatever the SDK
	// answered (older ones answer null for absent blocks).
	newVal = sch.Block.NormalizeRead(newVal)
	if plan.HasIdentity(read.NewIdentity) && !newVal.IsNull() {
		ds = ds.Append(plan.CheckIdentity(read.NewIdentity, true, req.ProviderConfig, addr.Instance))
		ds = ds.Append(plan.CheckIdentityKept("read", identity, read.NewIdentity, req.ProviderConfig, addr.Instance))
		if ds.HasErrors() {
			return out, ds
		}
		out.Identity = read.NewIdentity
	}
	out.Private = read.Private
	if newVal.RawEquals(val) && obj.SchemaVersion == uint64(sch.Version) && plan.IdentityRecorded(obj, sch, out.Identity) {
		return out, ds
	}
	out.Value, out.Changed = newVal, true
	if newVal.IsNull() {
		out.Private = nil
	}
	return out, ds
}

// RefreshedObject is obj, an object of resource type typeName of provider
// p, as a refresh read it: value v (not null) at the schema's version with
// the provider's private data and its identity (cty.NilVal keeps what obj
// records), sensitive where the schema says and where obj recorded.
func RefreshedObject(obj *state.Object, p addrs.Provider, typeName string, sch provider.Schema, v cty.Value, private []byte, identity cty.Value) (*state.Object, error) {
	nobj, err := state.NewObject(plan.StateValue(p, typeName, sch, v))
	if err != nil {
		return nil, err
	}
	refreshed := *obj
	refreshed.AttrsJSON = nobj.AttrsJSON
	refreshed.SchemaVersion = uint64(sch.Version)
	refreshed.Private = private
	// The schema's sensitive attributes, and those the configuration marked.
	if sens, err := state.SensitivePathsJSON(marks.Union(sch.Block.SensitivePaths(v), plan.RecordedSensitivePaths(obj))); err == nil {
		refreshed.SensitiveAttributes = sens
	}
	if err := plan.SetIdentity(&refreshed, sch, identity); err != nil {
		return nil, err
	}
	return &refreshed, nil
}
