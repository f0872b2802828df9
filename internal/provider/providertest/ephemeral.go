package providertest

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// TokenType is the provider's ephemeral resource type, test_token, with
// TokenSchema: opening one records the call and returns a secret made
// from its name; closing it records the call.
const TokenType = "test_token"

// TokenSchema is the schema of test_token:
//
//   - name (string, required): names the token in the recorded calls.
//   - secret (string, computed, sensitive): "token-" followed by the name.
//
// The Block is shared and must not be modified.
func TokenSchema() provider.Schema { return provider.Schema{Block: tokenBlock} }

var tokenBlock = &provider.Block{Attributes: map[string]*provider.Attribute{
	"name":   {Type: cty.String, Required: true},
	"secret": {Type: cty.String, Computed: true, Sensitive: true},
}}

// EphemeralCall records one OpenEphemeralResource or
// CloseEphemeralResource call of test_token.
type EphemeralCall struct {
	// Seq is the sequence number (see Op) the call took when it was made.
	Seq int
	// Call is "open" or "close".
	Call string
	// Name is the token's name.
	Name string
}

// String returns "open NAME" or "close NAME".
func (c EphemeralCall) String() string { return c.Call + " " + c.Name }

var _ provider.EphemeralResources = (*Provider)(nil)

// ValidateEphemeralResourceConfig accepts every configuration of
// test_token but a name of Refused.
func (p *Provider) ValidateEphemeralResourceConfig(_ context.Context, typeName string, config cty.Value) diag.Diagnostics {
	if typeName != TokenType {
		return diag.Diagnostics{diag.Errorf("Unknown ephemeral resource type", "The test provider has no ephemeral resource type %q.", typeName)}
	}
	if config.IsNull() || !config.IsKnown() {
		return nil
	}
	return refuse(config, "name")
}

// OpenEphemeralResource opens a test_token and records the call.
func (p *Provider) OpenEphemeralResource(_ context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	name := req.Config.GetAttr("name").AsString()
	p.recordEphemeral("open", name)
	return provider.OpenEphemeralResponse{Private: []byte(name),
		Result: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "secret": cty.StringVal("token-" + name)})}
}

// RenewEphemeralResource asks for no further renewal.
func (p *Provider) RenewEphemeralResource(context.Context, provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	return provider.RenewEphemeralResponse{}
}

// CloseEphemeralResource records the closing of a test_token.
func (p *Provider) CloseEphemeralResource(_ context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	p.recordEphemeral("close", string(req.Private))
	return nil
}

func (p *Provider) recordEphemeral(call, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	p.ephemerals = append(p.ephemerals, EphemeralCall{Seq: p.seq, Call: call, Name: name})
}

// Ephemerals returns the test_token calls made so far, in order. The
// caller owns the slice.
func (p *Provider) Ephemerals() []EphemeralCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]EphemeralCall(nil), p.ephemerals...)
}
