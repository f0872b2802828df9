package plugin

import (
	"context"

	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
)

// The MoveResourceState call of protocol 6 (5.5/6.5 and later).

func (c *client6) moveResourceState(ctx context.Context, req wireMoveRequest) (wireMoveResponse, error) {
	in := &proto.MoveResourceState_Request{
		SourceProviderAddress: req.sourceProvider, SourceTypeName: req.sourceType, SourceSchemaVersion: req.sourceVersion,
		SourceState: &proto.RawState{Json: req.sourceJSON}, SourcePrivate: req.sourcePrivate, TargetTypeName: req.targetType,
	}
	if req.sourceIdentityJSON != nil {
		in.SourceIdentity = &proto.RawState{Json: req.sourceIdentityJSON}
		in.SourceIdentitySchemaVersion = req.sourceIdentityVersion
	}
	resp, err := c.rpc.MoveResourceState(ctx, in)
	if err != nil {
		return wireMoveResponse{}, err
	}
	return wireMoveResponse{
		state: fromDV6(resp.GetTargetState()), private: resp.GetTargetPrivate(),
		identity: identity6(resp.GetTargetIdentity()), diags: diags6(resp.GetDiagnostics()),
	}, nil
}
