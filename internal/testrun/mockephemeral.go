package testrun

import (
	"context"
	"fmt"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

// Ephemeral resources under test: a mock provider opens them with the
// values of their configuration and, for the computed attributes, those of
// the override_ephemeral block that targets them, else of their type's
// mock_ephemeral block, else generated ones (as OpenTofu 1.12 opens them
// in a mock provider; override_ephemeral and mock_ephemeral are Terraform
// 1.16's). Closing them calls nothing. An overriding provider opens the
// instances an override_ephemeral targets the same way, and passes the
// others to the provider.

var (
	_ provider.EphemeralResources = (*mockProvider)(nil)
	_ provider.EphemeralResources = (*overridingProvider)(nil)
)

// openMocked opens an ephemeral resource instance with mv's values.
func openMocked(ctx context.Context, schemaOf schemaFunc, mv mockValues, addr addrs.AbsResourceInstance, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	resp := mockReadMode(ctx, schemaOf, addrs.Ephemeral, mv, addr, provider.ReadDataRequest{TypeName: req.TypeName, Config: req.Config})
	return provider.OpenEphemeralResponse{Result: resp.State, Diagnostics: resp.Diagnostics}
}

func (m *mockProvider) ValidateEphemeralResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}

func (m *mockProvider) OpenEphemeralResource(ctx context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	mv, addr := m.valuesFor(ctx, addrs.Ephemeral, req.TypeName)
	return openMocked(ctx, m.schemaOf, mv, addr, req)
}

func (m *mockProvider) RenewEphemeralResource(context.Context, provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	return provider.RenewEphemeralResponse{}
}

func (m *mockProvider) CloseEphemeralResource(context.Context, provider.CloseEphemeralRequest) diag.Diagnostics {
	return nil
}

// overriddenOpens are the private data an overriding provider gave the
// instances it opened itself, so that it closes them itself. It is safe
// for concurrent use.
type overriddenOpens struct {
	mu   sync.Mutex
	next int
	open map[string]bool
}

func (o *overriddenOpens) add() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.next++
	key := fmt.Sprintf("rig-test-override-%d", o.next)
	if o.open == nil {
		o.open = map[string]bool{}
	}
	o.open[key] = true
	return []byte(key)
}

// take reports whether private is one add gave, and forgets it.
func (o *overriddenOpens) take(private []byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.open[string(private)] {
		return false
	}
	delete(o.open, string(private))
	return true
}

// ephemeralTarget returns the wrapped provider's ephemeral resource calls.
func (p *overridingProvider) ephemeralTarget() (provider.EphemeralResources, diag.Diagnostics) {
	ep, ok := provider.AsEphemeral(p.Interface)
	if !ok {
		return nil, diag.Diagnostics{diag.Errorf("Ephemeral resources not supported", "The provider does not support ephemeral resources.")}
	}
	return ep, nil
}

func (p *overridingProvider) ValidateEphemeralResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ep, ds := p.ephemeralTarget()
	if ep == nil {
		return ds
	}
	return ep.ValidateEphemeralResourceConfig(ctx, typeName, config)
}

func (p *overridingProvider) OpenEphemeralResource(ctx context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	if o, addr, _ := p.override(ctx); o != nil {
		resp := openMocked(ctx, p.schemaOf, overrideValues(o, config.DuringApply), addr, req)
		if !resp.Diagnostics.HasErrors() {
			resp.Private = p.opened.add()
		}
		return resp
	}
	ep, ds := p.ephemeralTarget()
	if ep == nil {
		return provider.OpenEphemeralResponse{Diagnostics: ds}
	}
	return ep.OpenEphemeralResource(ctx, req)
}

func (p *overridingProvider) RenewEphemeralResource(ctx context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	ep, ds := p.ephemeralTarget()
	if ep == nil {
		return provider.RenewEphemeralResponse{Diagnostics: ds}
	}
	return ep.RenewEphemeralResource(ctx, req)
}

func (p *overridingProvider) CloseEphemeralResource(ctx context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	if p.opened.take(req.Private) {
		return nil
	}
	ep, ds := p.ephemeralTarget()
	if ep == nil {
		return ds
	}
	return ep.CloseEphemeralResource(ctx, req)
}
