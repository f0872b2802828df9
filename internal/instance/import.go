package instance

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// ImportReadRequest is what ReadImported needs of one object a provider's
// ImportResourceState returned.
type ImportReadRequest struct {
	// Addr is the instance the object is imported to.
	Addr           addrs.AbsResourceInstance
	Object         provider.ImportedObject
	Provider       provider.Interface
	ProviderConfig addrs.AbsProviderConfig
	// Eval and Providers give the resource's provider_meta.
	Eval      *eval.Evaluator
	Providers *provider.Set
	// Hooks observe the read (never nil).
	Hooks plan.RefreshHooks
	// Subject is where the import was asked for (an import block); nil
	// for the command line.
	Subject *hcl.Range
}

// Imported is an imported object as its provider read it back.
type Imported struct {
	Value   cty.Value
	Private []byte
	// Identity is the object's resource identity: the one the read
	// returned, else the one the import did (cty.NilVal or null when the
	// type declares none).
	Identity cty.Value
}

// ReadImported reads an imported object back (ReadResource), as OpenTofu
// does before anything records it: the identities the import and the read
// return must be whole and agree, and an object the read finds gone is an
// error, since only existing objects can be imported.
func ReadImported(ctx context.Context, req ImportReadRequest) (Imported, diag.Diagnostics) {
	addr, pc, imp := req.Addr, req.ProviderConfig, req.Object
	oaddr := addrs.ObjectAddr{Instance: addr}
	ds := plan.CheckIdentity(imp.Identity, true, pc, addr)
	if ds.HasErrors() {
		return Imported{}, ds
	}
	meta, more := req.Eval.ProviderMeta(ctx, req.Providers, addr.Module, pc.Provider, addr.Resource.Resource.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return Imported{}, ds
	}
	req.Hooks.PreRefresh(oaddr, imp.State)
	read := req.Provider.ReadResource(ctx, provider.ReadRequest{TypeName: addr.Resource.Resource.Type, PriorState: imp.State, Private: imp.Private, ProviderMeta: meta, CurrentIdentity: imp.Identity})
	if ds = ds.Append(read.Diagnostics.WithAddress(oaddr)); ds.HasErrors() {
		return Imported{}, ds
	}
	req.Hooks.PostRefresh(oaddr, read.NewState)
	identity := imp.Identity
	if plan.HasIdentity(read.NewIdentity) {
		ds = ds.Append(plan.CheckIdentity(read.NewIdentity, true, pc, addr))
		ds = ds.Append(plan.CheckIdentityKept("read", imp.Identity, read.NewIdentity, pc, addr))
		if ds.HasErrors() {
			return Imported{}, ds
		}
		identity = read.NewIdentity
	}
	if read.NewState == cty.NilVal || read.NewState.IsNull() {
		d := diag.Errorf("Cannot import non-existent remote object",
			"While attempting to import an existing object to %q, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"rig apply\" to create a new remote object for this resource.", addr)
		if req.Subject != nil {
			rng := *req.Subject
			d.Subject = &rng
		}
		return Imported{}, ds.Append(d)
	}
	return Imported{Value: read.NewState, Private: read.Private, Identity: identity}, ds
}

// ImportedObject is the state's object for imp, an object imported to
// addr of provider configuration pc: ready, with its private data and
// identity.
func ImportedObject(pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, sch provider.Schema, imp Imported) (*state.Object, error) {
	obj, err := plan.NewStateObject(pc.Provider, addr.Resource.Resource.Type, sch, imp.Value)
	if err == nil {
		err = plan.SetIdentity(obj, sch, imp.Identity)
	}
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", addr, err)
	}
	obj.Status = state.Ready
	obj.Private = imp.Private
	return obj, nil
}
