package providertest

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

// Instance is one started instance of a Provider, as InstanceFactory makes
// them: it shares the provider's live objects, record and faults, and
// remembers the region it was configured with, which the Ops it applies
// carry (Op.Provider). Tests use it to see which provider configuration
// (instance) handled which object.
type Instance struct {
	*Provider
	region string
}

// InstanceFactory returns a factory that starts a new Instance of p on
// every call, as a plugin starts one process per provider configuration.
func (p *Provider) InstanceFactory() provider.Factory {
	return func() (provider.Interface, error) { return &Instance{Provider: p}, nil }
}

// InstanceFactories returns p's InstanceFactory registered under Address().
func (p *Provider) InstanceFactories() provider.Factories {
	return provider.Factories{Address(): p.InstanceFactory()}
}

// ConfigureProvider records the configured region (see Configured), then
// configures p.
func (i *Instance) ConfigureProvider(ctx context.Context, req provider.ConfigureRequest) diag.Diagnostics {
	region := str(req.Config, "region")
	i.Provider.mu.Lock()
	i.region = region
	i.Provider.configured = append(i.Provider.configured, region)
	i.Provider.mu.Unlock()
	return i.Provider.ConfigureProvider(ctx, req)
}

// ApplyResourceChange is Provider.ApplyResourceChange, recording the
// instance's region in the Op.
func (i *Instance) ApplyResourceChange(_ context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	i.Provider.mu.Lock()
	region := i.region
	i.Provider.mu.Unlock()
	return i.Provider.apply(region, req)
}

// Configured returns the region of every Instance configured so far, in
// the order they were configured ("" for a configuration without one).
func (p *Provider) Configured() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.configured...)
}
