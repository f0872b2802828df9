package main

import (
	"context"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// test_token is an ephemeral resource: opening one named NAME gives the
// secret "token-NAME", the private data "p-NAME" and a renewal time,
// tokenRenewAt; renewing it appends "+renewed" to its private data and
// asks for renewal at tokenRenewAgainAt; closing one named "fail" fails.
// An empty name is invalid.
var (
	tokenType         = cty.Object(map[string]cty.Type{"name": cty.String, "secret": cty.String})
	tokenRenewAt      = time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	tokenRenewAgainAt = time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
)

func tokenSchema() *tfplugin6.Schema {
	return &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
		attr("name", cty.String, "r"),
		attr("secret", cty.String, "cs"),
	}}}
}

func (s *server) ValidateEphemeralResourceConfig(_ context.Context, req *tfplugin6.ValidateEphemeralResourceConfig_Request) (*tfplugin6.ValidateEphemeralResourceConfig_Response, error) {
	if req.TypeName != "test_token" {
		return &tfplugin6.ValidateEphemeralResourceConfig_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Unknown ephemeral resource type", req.TypeName)}}, nil
	}
	v, err := decode(req.Config, tokenType)
	if err != nil {
		return &tfplugin6.ValidateEphemeralResourceConfig_Response{Diagnostics: decodeFailed(err)}, nil
	}
	if name := v.GetAttr("name"); name.IsKnown() && !name.IsNull() && name.AsString() == "" {
		return &tfplugin6.ValidateEphemeralResourceConfig_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Invalid name", "A token needs a name.", attrStep("name"))}}, nil
	}
	return &tfplugin6.ValidateEphemeralResourceConfig_Response{}, nil
}

func (s *server) OpenEphemeralResource(_ context.Context, req *tfplugin6.OpenEphemeralResource_Request) (*tfplugin6.OpenEphemeralResource_Response, error) {
	v, err := decode(req.Config, tokenType)
	if err != nil {
		return &tfplugin6.OpenEphemeralResource_Response{Diagnostics: decodeFailed(err)}, nil
	}
	name := v.GetAttr("name").AsString()
	opLog("open %s", name)
	out := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "secret": cty.StringVal("token-" + name)})
	return &tfplugin6.OpenEphemeralResource_Response{Result: encode(out, tokenType), Private: []byte("p-" + name),
		RenewAt: timestamppb.New(tokenRenewAt)}, nil
}

func (s *server) RenewEphemeralResource(_ context.Context, req *tfplugin6.RenewEphemeralResource_Request) (*tfplugin6.RenewEphemeralResource_Response, error) {
	return &tfplugin6.RenewEphemeralResource_Response{Private: append(req.Private, "+renewed"...), RenewAt: timestamppb.New(tokenRenewAgainAt)}, nil
}

func (s *server) CloseEphemeralResource(_ context.Context, req *tfplugin6.CloseEphemeralResource_Request) (*tfplugin6.CloseEphemeralResource_Response, error) {
	name, _, _ := strings.Cut(strings.TrimPrefix(string(req.Private), "p-"), "+")
	opLog("close %s", name)
	if string(req.Private) == "p-fail" {
		return &tfplugin6.CloseEphemeralResource_Response{Diagnostics: []*tfplugin6.Diagnostic{errDiag("Close failed", "The token could not be revoked.")}}, nil
	}
	return &tfplugin6.CloseEphemeralResource_Response{}, nil
}

func (s *server5) ValidateEphemeralResourceConfig(ctx context.Context, in *tfplugin5.ValidateEphemeralResourceConfig_Request) (*tfplugin5.ValidateEphemeralResourceConfig_Response, error) {
	return relay(ctx, in, new(tfplugin6.ValidateEphemeralResourceConfig_Request), new(tfplugin5.ValidateEphemeralResourceConfig_Response), s.v6.ValidateEphemeralResourceConfig)
}

func (s *server5) OpenEphemeralResource(ctx context.Context, in *tfplugin5.OpenEphemeralResource_Request) (*tfplugin5.OpenEphemeralResource_Response, error) {
	return relay(ctx, in, new(tfplugin6.OpenEphemeralResource_Request), new(tfplugin5.OpenEphemeralResource_Response), s.v6.OpenEphemeralResource)
}

func (s *server5) RenewEphemeralResource(ctx context.Context, in *tfplugin5.RenewEphemeralResource_Request) (*tfplugin5.RenewEphemeralResource_Response, error) {
	return relay(ctx, in, new(tfplugin6.RenewEphemeralResource_Request), new(tfplugin5.RenewEphemeralResource_Response), s.v6.RenewEphemeralResource)
}

func (s *server5) CloseEphemeralResource(ctx context.Context, in *tfplugin5.CloseEphemeralResource_Request) (*tfplugin5.CloseEphemeralResource_Response, error) {
	return relay(ctx, in, new(tfplugin6.CloseEphemeralResource_Request), new(tfplugin5.CloseEphemeralResource_Response), s.v6.CloseEphemeralResource)
}
