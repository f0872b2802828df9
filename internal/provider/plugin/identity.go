package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// addIdentitySchemas asks the provider for its resource identity schemas
// and adds each to its resource type's schema. A provider that predates
// resource identities (it answers Unimplemented) has none.
func (p *Provider) addIdentitySchemas(ctx context.Context, ws *wireSchemas) {
	ids, ds, err := p.proto.getIdentitySchemas(ctx)
	if err != nil {
		if status.Code(err) != codes.Unimplemented {
			ws.diags = ws.diags.Append(p.callFailed("GetResourceIdentitySchemas", err))
		}
		return
	}
	ws.diags = ws.diags.Append(ds)
	for name, id := range ids {
		sch, ok := ws.schemas.ResourceTypes[name]
		if !ok || len(id.Block.Attributes) == 0 {
			continue
		}
		sch.Identity, sch.IdentityVersion = id.Block, id.Version
		ws.schemas.ResourceTypes[name] = sch
	}
}

// identityType returns the implied type of a resource type's identity
// schema; false when the type has none.
func (ws *wireSchemas) identityType(typeName string) (cty.Type, bool) {
	ty, ok := ws.identityTypes[typeName]
	return ty, ok
}

// encodeIdentity encodes an identity for a request; nil (no identity sent)
// when v is cty.NilVal or null or the type declares no identity.
func (ws *wireSchemas) encodeIdentity(typeName string, v cty.Value) (*dynamicValue, error) {
	ty, ok := ws.identityType(typeName)
	if !ok || v == cty.NilVal || v.IsNull() {
		return nil, nil
	}
	dv, err := encodeValue(v, ty)
	if err != nil {
		return nil, err
	}
	return &dv, nil
}

// decodeIdentity decodes an identity a provider returned; cty.NilVal when
// it returned none or the type declares no identity.
func (ws *wireSchemas) decodeIdentity(typeName string, dv *dynamicValue) (cty.Value, error) {
	ty, ok := ws.identityType(typeName)
	if !ok || dv == nil {
		return cty.NilVal, nil
	}
	return decodeValue(*dv, ty)
}

// upgradeIdentity brings a stored identity to the current identity schema
// (UpgradeResourceIdentity), as part of UpgradeResourceState.
func (p *Provider) upgradeIdentity(ctx context.Context, ws *wireSchemas, req provider.UpgradeRequest) (cty.Value, diag.Diagnostics) {
	ty, ok := ws.identityType(req.TypeName)
	if !ok || req.RawIdentityJSON == nil {
		return cty.NilVal, nil
	}
	sch := ws.schemas.ResourceTypes[req.TypeName]
	if req.IdentityVersion > sch.IdentityVersion {
		return cty.NilVal, diag.Diagnostics{diag.Errorf("Resource instance managed by newer provider version",
			"The current identity of the object was created by a newer version of provider %s than is currently selected. Upgrade the provider to work with this identity.", p.meta)}
	}
	dv, ds, err := p.proto.upgradeResourceIdentity(ctx, req.TypeName, req.IdentityVersion, req.RawIdentityJSON)
	if err != nil {
		return cty.NilVal, diag.Diagnostics{p.callFailed("UpgradeResourceIdentity", err)}
	}
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	v, err := decodeValue(dv, ty)
	if err != nil {
		return cty.NilVal, ds.Append(p.decodeFailed("UpgradeResourceIdentity", err))
	}
	if !v.IsWhollyKnown() {
		return cty.NilVal, ds.Append(diag.Errorf("Invalid resource identity upgrade",
			"The provider %s upgraded the identity of a %s object from a previous version, but produced an invalid result: the identity contains unknown values.", p.meta, req.TypeName))
	}
	return v, ds
}

// ValidateListResourceConfig asks the provider to check a list block's
// config. A provider that predates the call (it answers Unimplemented)
// accepts every config its schema does.
func (p *Provider) ValidateListResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return ds
	}
	lsch, ok := ws.schemas.ListResources[typeName]
	if !ok {
		return diag.Diagnostics{diag.Errorf("Invalid list resource type",
			"The provider %s does not support list resource type %q.", p.meta, typeName)}
	}
	cfg, err := encodeValue(config, lsch.Block.ImpliedType())
	if err != nil {
		return diag.Diagnostics{p.encodeFailed(typeName+" list configuration", err)}
	}
	out, err := p.proto.validateListResourceConfig(ctx, typeName, cfg)
	if err != nil {
		if status.Code(err) == codes.Unimplemented {
			return nil
		}
		return diag.Diagnostics{p.callFailed("ValidateListResourceConfig", err)}
	}
	return out
}

// ListResource lists the objects of a list resource type that match
// req.Config, calling found for each event the provider streams. The
// diagnostics events carry are returned, with the objects they came with
// (if any) still passed to found.
func (p *Provider) ListResource(ctx context.Context, req provider.ListRequest, found func(provider.ListedObject)) diag.Diagnostics {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return ds
	}
	lsch, ok := ws.schemas.ListResources[req.TypeName]
	if !ok {
		return diag.Diagnostics{diag.Errorf("Invalid list resource type",
			"The provider %s does not support list resource type %q.", p.meta, req.TypeName)}
	}
	cfg, err := encodeValue(req.Config, lsch.Block.ImpliedType())
	if err != nil {
		return diag.Diagnostics{p.encodeFailed(req.TypeName+" list configuration", err)}
	}
	resTy, hasRes := ws.resourceTypes[req.TypeName]
	var out diag.Diagnostics
	err = p.proto.listResource(ctx, wireListRequest{typeName: req.TypeName, config: cfg, includeResource: req.IncludeResource, limit: req.Limit}, func(ev wireListed) {
		out = out.Append(ev.diags)
		if ev.identity == nil {
			return
		}
		obj := provider.ListedObject{DisplayName: ev.displayName}
		id, err := ws.decodeIdentity(req.TypeName, ev.identity)
		if err != nil || id == cty.NilVal {
			if err == nil {
				out = out.Append(diag.Errorf("Invalid provider response", "The provider %s listed a %s object, but the resource type declares no identity.", p.meta, req.TypeName))
			} else {
				out = out.Append(p.decodeFailed("ListResource", err))
			}
			return
		}
		obj.Identity = id
		if ev.resource != nil && hasRes {
			if obj.Resource, err = decodeValue(*ev.resource, resTy); err != nil {
				out = out.Append(p.decodeFailed("ListResource", err))
				return
			}
			if obj.Resource.IsNull() {
				obj.Resource = cty.NilVal
			}
		}
		found(obj)
	})
	if err != nil {
		out = out.Append(p.callFailed("ListResource", err))
	}
	return out
}
