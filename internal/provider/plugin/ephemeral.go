package plugin

import (
	"context"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// The ephemeral resource calls of protocols 5.7 and 6.7 and later. Their
// messages are the same, field for field, in both major versions, and are
// encoded here by hand (the generated code rig carries predates them); only
// the service name differs. A provider that predates them answers
// Unimplemented, which the caller reports.

var _ provider.EphemeralResources = (*Provider)(nil)

// rawCodec passes already-encoded protobuf messages through gRPC.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }

func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}

func (rawCodec) Name() string { return "proto" }

// invokeRaw calls method of the provider's service with an encoded request
// and returns the encoded response.
func (p *Provider) invokeRaw(ctx context.Context, method string, req []byte) ([]byte, error) {
	conn := p.proto.connection()
	if conn == nil {
		return nil, fmt.Errorf("no connection to the provider")
	}
	service := fmt.Sprintf("/tfplugin%d.Provider/", p.proto.version())
	var resp []byte
	err := conn.Invoke(ctx, service+method, &req, &resp, grpc.ForceCodec(rawCodec{}))
	return resp, err
}

// ephemeralResponse holds the fields of the ephemeral calls' responses.
type ephemeralResponse struct {
	diags    diag.Diagnostics
	renewAt  time.Time
	result   dynamicValue
	private  []byte
	deferred bool
}

// decodeEphemeralResponse reads a response of the Open, Renew, Close or
// Validate calls: diagnostics are field 1 in all of them, renew_at field 2
// of Open and Renew, result field 3 of Open, private field 4 of Open and 3
// of Renew, deferred field 5 of Open.
func decodeEphemeralResponse(b []byte, privateField protowire.Number) (ephemeralResponse, error) {
	var out ephemeralResponse
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return out, protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return out, protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return out, protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case num == 1:
			// Diagnostic is the same message in protocols 5 and 6.
			var d tfplugin5.Diagnostic
			if err := proto.Unmarshal(v, &d); err != nil {
				return out, fmt.Errorf("diagnostic: %w", err)
			}
			out.diags = append(out.diags, diags5([]*tfplugin5.Diagnostic{&d})...)
		case num == 2:
			var secs, nanos int64
			for len(v) > 0 {
				tn, tt, tl := protowire.ConsumeTag(v)
				if tl < 0 || tt != protowire.VarintType {
					return out, fmt.Errorf("malformed renew_at")
				}
				v = v[tl:]
				x, xl := protowire.ConsumeVarint(v)
				if xl < 0 {
					return out, fmt.Errorf("malformed renew_at")
				}
				v = v[xl:]
				switch tn {
				case 1:
					secs = int64(x)
				case 2:
					nanos = int64(int32(x))
				}
			}
			out.renewAt = time.Unix(secs, nanos)
		case num == 3 && privateField != 3:
			var dv tfplugin5.DynamicValue
			if err := proto.Unmarshal(v, &dv); err != nil {
				return out, fmt.Errorf("result: %w", err)
			}
			out.result = fromDV5(&dv)
		case num == privateField:
			out.private = append([]byte(nil), v...)
		case num == 5:
			out.deferred = true
		}
	}
	return out, nil
}

// appendConfigRequest encodes type_name (1), config (2) and, when caps,
// the client capabilities (3) of a Validate or Open request.
func appendConfigRequest(typeName string, config dynamicValue, caps bool) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, typeName)
	dv, _ := proto.Marshal(dv5(config))
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, dv)
	if caps {
		var c []byte
		c = protowire.AppendTag(c, 2, protowire.VarintType) // write_only_attributes_allowed
		c = protowire.AppendVarint(c, 1)
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, c)
	}
	return b
}

// appendPrivateRequest encodes type_name (1) and private (2) of a Renew or
// Close request.
func appendPrivateRequest(typeName string, private []byte) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, typeName)
	if private != nil {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, private)
	}
	return b
}

// ephemeralType returns the implied type of an ephemeral resource type.
func (p *Provider) ephemeralType(ctx context.Context, typeName string) (cty.Type, diag.Diagnostics) {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return cty.NilType, ds
	}
	s, ok := ws.schemas.EphemeralResources[typeName]
	if !ok {
		return cty.NilType, diag.Diagnostics{diag.Errorf("Invalid ephemeral resource type",
			"The provider %s does not support ephemeral resource type %q.", p.meta, typeName)}
	}
	return s.Block.ImpliedType(), nil
}

// ValidateEphemeralResourceConfig checks an ephemeral resource's configuration.
func (p *Provider) ValidateEphemeralResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ty, ds := p.ephemeralType(ctx, typeName)
	if ds.HasErrors() {
		return ds
	}
	dv, err := encodeValue(config, ty)
	if err != nil {
		return diag.Diagnostics{p.encodeFailed(typeName+" configuration", err)}
	}
	raw, err := p.invokeRaw(ctx, "ValidateEphemeralResourceConfig", appendConfigRequest(typeName, dv, false))
	if err != nil {
		return diag.Diagnostics{p.callFailed("ValidateEphemeralResourceConfig", err)}
	}
	resp, err := decodeEphemeralResponse(raw, 0)
	if err != nil {
		return diag.Diagnostics{p.decodeFailed("ValidateEphemeralResourceConfig", err)}
	}
	return resp.diags
}

// OpenEphemeralResource opens an ephemeral resource.
func (p *Provider) OpenEphemeralResource(ctx context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	ty, ds := p.ephemeralType(ctx, req.TypeName)
	if ds.HasErrors() {
		return provider.OpenEphemeralResponse{Diagnostics: ds}
	}
	dv, err := encodeValue(req.Config, ty)
	if err != nil {
		return provider.OpenEphemeralResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" configuration", err)}}
	}
	raw, err := p.invokeRaw(ctx, "OpenEphemeralResource", appendConfigRequest(req.TypeName, dv, true))
	if err != nil {
		return provider.OpenEphemeralResponse{Diagnostics: diag.Diagnostics{p.callFailed("OpenEphemeralResource", err)}}
	}
	resp, err := decodeEphemeralResponse(raw, 4)
	if err != nil {
		return provider.OpenEphemeralResponse{Diagnostics: diag.Diagnostics{p.decodeFailed("OpenEphemeralResource", err)}}
	}
	out := provider.OpenEphemeralResponse{Private: resp.private, RenewAt: resp.renewAt, Diagnostics: resp.diags}
	if resp.deferred {
		out.Diagnostics = out.Diagnostics.Append(p.deferred("OpenEphemeralResource"))
	}
	if out.Result, err = decodeValue(resp.result, ty); err != nil {
		out.Result = cty.NullVal(ty)
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("OpenEphemeralResource", err))
	}
	return out
}

// RenewEphemeralResource renews an open ephemeral resource.
func (p *Provider) RenewEphemeralResource(ctx context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	raw, err := p.invokeRaw(ctx, "RenewEphemeralResource", appendPrivateRequest(req.TypeName, req.Private))
	if err != nil {
		return provider.RenewEphemeralResponse{Diagnostics: diag.Diagnostics{p.callFailed("RenewEphemeralResource", err)}}
	}
	resp, err := decodeEphemeralResponse(raw, 3)
	if err != nil {
		return provider.RenewEphemeralResponse{Diagnostics: diag.Diagnostics{p.decodeFailed("RenewEphemeralResource", err)}}
	}
	return provider.RenewEphemeralResponse{Private: resp.private, RenewAt: resp.renewAt, Diagnostics: resp.diags}
}

// CloseEphemeralResource closes an open ephemeral resource.
func (p *Provider) CloseEphemeralResource(ctx context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	raw, err := p.invokeRaw(ctx, "CloseEphemeralResource", appendPrivateRequest(req.TypeName, req.Private))
	if err != nil {
		return diag.Diagnostics{p.callFailed("CloseEphemeralResource", err)}
	}
	resp, err := decodeEphemeralResponse(raw, 0)
	if err != nil {
		return diag.Diagnostics{p.decodeFailed("CloseEphemeralResource", err)}
	}
	return resp.diags
}
