package provider

import (
	"context"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// EphemeralResources is what the engine calls on a provider that offers
// ephemeral resources (`ephemeral` blocks): objects opened for the length
// of a run, never recorded. Plugin providers implement it; a provider that
// does not is one without ephemeral resource types.
type EphemeralResources interface {
	// ValidateEphemeralResourceConfig checks one ephemeral resource's
	// configuration (unknowns allowed).
	ValidateEphemeralResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics
	// OpenEphemeralResource opens an ephemeral resource: it returns its
	// value, the private data the later calls need, and when (if ever) it
	// must be renewed.
	OpenEphemeralResource(ctx context.Context, req OpenEphemeralRequest) OpenEphemeralResponse
	// RenewEphemeralResource extends an open ephemeral resource's life.
	RenewEphemeralResource(ctx context.Context, req RenewEphemeralRequest) RenewEphemeralResponse
	// CloseEphemeralResource releases an open ephemeral resource.
	CloseEphemeralResource(ctx context.Context, req CloseEphemeralRequest) diag.Diagnostics
}

// OpenEphemeralRequest carries an ephemeral resource's configuration,
// wholly known.
type OpenEphemeralRequest struct {
	TypeName string
	Config   cty.Value
}

// OpenEphemeralResponse carries an opened ephemeral resource.
type OpenEphemeralResponse struct {
	Result  cty.Value
	Private []byte
	// RenewAt is when the resource must be renewed to stay valid; zero
	// when it needs no renewal.
	RenewAt     time.Time
	Diagnostics diag.Diagnostics
}

// RenewEphemeralRequest asks to renew an open ephemeral resource.
type RenewEphemeralRequest struct {
	TypeName string
	Private  []byte
}

// RenewEphemeralResponse carries the renewed resource's private data and
// its next renewal time (zero for none).
type RenewEphemeralResponse struct {
	Private     []byte
	RenewAt     time.Time
	Diagnostics diag.Diagnostics
}

// CloseEphemeralRequest asks to close an open ephemeral resource.
type CloseEphemeralRequest struct {
	TypeName string
	Private  []byte
}

// Unwrapper is a provider instance wrapping another (to measure its
// calls); Unwrap returns the wrapped one.
type Unwrapper interface {
	Unwrap() Interface
}

// Unwrap implements Unwrapper.
func (m measured) Unwrap() Interface { return m.Interface }

// AsEphemeral returns p's ephemeral resource calls, looking through the
// wrappers rig puts around providers; false for a provider without them.
func AsEphemeral(p Interface) (EphemeralResources, bool) {
	for p != nil {
		if ep, ok := p.(EphemeralResources); ok {
			return ep, true
		}
		u, ok := p.(Unwrapper)
		if !ok {
			return nil, false
		}
		p = u.Unwrap()
	}
	return nil, false
}
