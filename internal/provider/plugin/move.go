package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// MoveResourceState converts an object recorded under another resource
// type into one of req.TargetTypeName, with its identity under that type.
// A provider that does not announce the capability refuses, as in
// Terraform.
func (p *Provider) MoveResourceState(ctx context.Context, req provider.MoveRequest) provider.MoveResponse {
	ty, ws, ds := p.schemaFor(ctx, "resource", req.TargetTypeName)
	if ds.HasErrors() {
		return provider.MoveResponse{Diagnostics: ds}
	}
	if !ws.capabilities.moveResourceState {
		return provider.MoveResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Unsupported `moved` across resource types",
			"The provider %q does not support moved operations across resource types and providers.", p.meta)}}
	}
	resp, err := p.proto.moveResourceState(ctx, wireMoveRequest{
		sourceProvider: req.SourceProvider, sourceType: req.SourceTypeName, targetType: req.TargetTypeName,
		sourceVersion: req.SourceSchemaVersion, sourceJSON: req.SourceStateJSON, sourcePrivate: req.SourcePrivate,
		sourceIdentityJSON: req.SourceIdentityJSON, sourceIdentityVersion: req.SourceIdentityVersion,
	})
	if err != nil {
		return provider.MoveResponse{Diagnostics: diag.Diagnostics{p.callFailed("MoveResourceState", err)}}
	}
	out := provider.MoveResponse{TargetPrivate: resp.private, TargetIdentity: cty.NilVal, Diagnostics: resp.diags}
	if resp.diags.HasErrors() {
		return out
	}
	if out.TargetState, err = decodeValue(resp.state, ty); err != nil {
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("MoveResourceState", err))
		return out
	}
	if out.TargetIdentity, err = ws.decodeIdentity(req.TargetTypeName, resp.identity); err != nil {
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("MoveResourceState", err))
	}
	return out
}
