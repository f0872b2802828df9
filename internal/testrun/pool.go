package testrun

import (
	"context"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/provider"
)

// pool keeps the provider processes of a suite. Per provider, one process
// that is never configured answers schemas, functions and validations;
// configured processes are kept by their configuration and shared by every
// run, of every file, that configures the provider with the same wholly
// known value (a provider serves concurrent requests within one apply, so
// it serves concurrent runs just as well). Everything is closed by close.
// It is safe for concurrent use.
type pool struct {
	factories provider.Factories

	spares parallel.Memo[addrs.Provider, spare]

	mu sync.Mutex
	// configured are the processes configured with a wholly known value,
	// found by comparing values (which cannot be map keys); one configured
	// with unknown values is never shared.
	configured map[addrs.Provider][]*configuredProcess
	all        []provider.Interface
}

// spare is the unconfigured process of one provider, started once.
type spare struct {
	inst    provider.Interface
	schemas *provider.Schemas
	diags   diag.Diagnostics
}

// configuredProcess is a process configured with config, once.
type configuredProcess struct {
	config cty.Value
	once   sync.Once
	inst   provider.Interface
	diags  diag.Diagnostics
}

func newPool(f provider.Factories) *pool {
	return &pool{factories: f, configured: map[addrs.Provider][]*configuredProcess{}}
}

// Factories returns factories whose instances are views of the pool's
// processes: closing one releases nothing.
func (p *pool) Factories() provider.Factories {
	out := make(provider.Factories, len(p.factories))
	for addr := range p.factories {
		out[addr] = func() (provider.Interface, error) { return &pooledProvider{pool: p, addr: addr}, nil }
	}
	return out
}

func (p *pool) start(addr addrs.Provider) (provider.Interface, error) {
	inst, err := p.factories[addr]()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.all = append(p.all, inst)
	p.mu.Unlock()
	return inst, nil
}

// spare returns the unconfigured process of addr with its schemas.
func (p *pool) spare(ctx context.Context, addr addrs.Provider) *spare {
	sp, _ := p.spares.Do(addr, func(sp *spare) {
		inst, err := p.start(addr)
		if err != nil {
			sp.diags = sp.diags.Append(diag.Errorf("Failed to start provider", "Starting provider %s: %s.", addr.ForDisplay(), err))
			return
		}
		sp.inst = inst
		sp.schemas, sp.diags = inst.GetProviderSchema(ctx)
	})
	return sp
}

// configure returns a process of addr configured with cfg: a process
// already configured with the same value, or a new one.
func (p *pool) configure(ctx context.Context, addr addrs.Provider, req provider.ConfigureRequest) (provider.Interface, diag.Diagnostics) {
	plain, _ := req.Config.UnmarkDeep()
	shareable := plain.IsWhollyKnown()
	p.mu.Lock()
	var cp *configuredProcess
	if shareable {
		for _, c := range p.configured[addr] {
			if c.config.RawEquals(plain) {
				cp = c
				break
			}
		}
	}
	if cp == nil {
		cp = &configuredProcess{config: plain}
		if shareable {
			p.configured[addr] = append(p.configured[addr], cp)
		}
	}
	p.mu.Unlock()
	cp.once.Do(func() {
		inst, err := p.start(addr)
		if err != nil {
			cp.diags = cp.diags.Append(diag.Errorf("Failed to start provider", "Starting provider %s: %s.", addr.ForDisplay(), err))
			return
		}
		if _, ds := inst.GetProviderSchema(ctx); ds.HasErrors() {
			cp.diags = ds
			return
		}
		cp.diags = inst.ConfigureProvider(ctx, req)
		if !cp.diags.HasErrors() {
			cp.inst = inst
		}
	})
	return cp.inst, cp.diags
}

// stopAll asks every process to cancel what it is doing.
func (p *pool) stopAll(ctx context.Context) {
	p.mu.Lock()
	all := append([]provider.Interface(nil), p.all...)
	p.mu.Unlock()
	for _, inst := range all {
		_ = inst.Stop(ctx)
	}
}

// close ends every process.
func (p *pool) close() {
	p.mu.Lock()
	all := p.all
	p.all = nil
	p.mu.Unlock()
	for _, inst := range all {
		_ = inst.Close()
	}
}

// pooledProvider is one run's instance of a provider: unconfigured, it
// answers from the pool's spare process; configured, from a configured
// process it shares with the runs that configured it alike.
type pooledProvider struct {
	pool *pool
	addr addrs.Provider

	mu    sync.Mutex
	bound provider.Interface
}

func (pp *pooledProvider) target(ctx context.Context) (provider.Interface, diag.Diagnostics) {
	pp.mu.Lock()
	b := pp.bound
	pp.mu.Unlock()
	if b != nil {
		return b, nil
	}
	sp := pp.pool.spare(ctx, pp.addr)
	if sp.inst == nil {
		return nil, sp.diags
	}
	return sp.inst, nil
}

// forward calls f with the instance pp answers from, or, when that
// instance could not be started, returns fail of what starting it reported.
func forward[R any](ctx context.Context, pp *pooledProvider, f func(provider.Interface) R, fail func(diag.Diagnostics) R) R {
	t, ds := pp.target(ctx)
	if t == nil {
		return fail(ds)
	}
	return f(t)
}

// diagsOnly is forward's fail for the calls that return only diagnostics.
func diagsOnly(ds diag.Diagnostics) diag.Diagnostics { return ds }

func (pp *pooledProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	sp := pp.pool.spare(ctx, pp.addr)
	return sp.schemas, sp.diags
}

func (pp *pooledProvider) ValidateProviderConfig(ctx context.Context, config cty.Value) diag.Diagnostics {
	sp := pp.pool.spare(ctx, pp.addr)
	if sp.inst == nil {
		return sp.diags
	}
	return sp.inst.ValidateProviderConfig(ctx, config)
}

func (pp *pooledProvider) ValidateResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	return forward(ctx, pp, func(t provider.Interface) diag.Diagnostics {
		return t.ValidateResourceConfig(ctx, typeName, config)
	}, diagsOnly)
}

func (pp *pooledProvider) ValidateDataResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	return forward(ctx, pp, func(t provider.Interface) diag.Diagnostics {
		return t.ValidateDataResourceConfig(ctx, typeName, config)
	}, diagsOnly)
}

func (pp *pooledProvider) ConfigureProvider(ctx context.Context, req provider.ConfigureRequest) diag.Diagnostics {
	inst, ds := pp.pool.configure(ctx, pp.addr, req)
	if inst != nil {
		pp.mu.Lock()
		pp.bound = inst
		pp.mu.Unlock()
	}
	return ds
}

func (pp *pooledProvider) UpgradeResourceState(ctx context.Context, req provider.UpgradeRequest) provider.UpgradeResponse {
	return forward(ctx, pp, func(t provider.Interface) provider.UpgradeResponse {
		return t.UpgradeResourceState(ctx, req)
	}, func(ds diag.Diagnostics) provider.UpgradeResponse { return provider.UpgradeResponse{Diagnostics: ds} })
}

func (pp *pooledProvider) ReadResource(ctx context.Context, req provider.ReadRequest) provider.ReadResponse {
	return forward(ctx, pp, func(t provider.Interface) provider.ReadResponse {
		return t.ReadResource(ctx, req)
	}, func(ds diag.Diagnostics) provider.ReadResponse { return provider.ReadResponse{Diagnostics: ds} })
}

func (pp *pooledProvider) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	return forward(ctx, pp, func(t provider.Interface) provider.PlanResponse {
		return t.PlanResourceChange(ctx, req)
	}, func(ds diag.Diagnostics) provider.PlanResponse { return provider.PlanResponse{Diagnostics: ds} })
}

func (pp *pooledProvider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	return forward(ctx, pp, func(t provider.Interface) provider.ApplyResponse {
		return t.ApplyResourceChange(ctx, req)
	}, func(ds diag.Diagnostics) provider.ApplyResponse { return provider.ApplyResponse{Diagnostics: ds} })
}

func (pp *pooledProvider) ImportResourceState(ctx context.Context, req provider.ImportRequest) provider.ImportResponse {
	return forward(ctx, pp, func(t provider.Interface) provider.ImportResponse {
		return t.ImportResourceState(ctx, req)
	}, func(ds diag.Diagnostics) provider.ImportResponse { return provider.ImportResponse{Diagnostics: ds} })
}

func (pp *pooledProvider) MoveResourceState(ctx context.Context, req provider.MoveRequest) provider.MoveResponse {
	t, ds := pp.target(ctx)
	if t == nil {
		return provider.MoveResponse{Diagnostics: ds}
	}
	return t.MoveResourceState(ctx, req)
}

func (pp *pooledProvider) ValidateListResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	t, ds := pp.target(ctx)
	if t == nil {
		return ds
	}
	return t.ValidateListResourceConfig(ctx, typeName, config)
}

func (pp *pooledProvider) ListResource(ctx context.Context, req provider.ListRequest, found func(provider.ListedObject)) diag.Diagnostics {
	return forward(ctx, pp, func(t provider.Interface) diag.Diagnostics {
		return t.ListResource(ctx, req, found)
	}, diagsOnly)
}

func (pp *pooledProvider) ReadDataSource(ctx context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	return forward(ctx, pp, func(t provider.Interface) provider.ReadDataResponse {
		return t.ReadDataSource(ctx, req)
	}, func(ds diag.Diagnostics) provider.ReadDataResponse { return provider.ReadDataResponse{Diagnostics: ds} })
}

func (pp *pooledProvider) GetFunctions(ctx context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics) {
	sp := pp.pool.spare(ctx, pp.addr)
	if sp.inst == nil {
		return nil, sp.diags
	}
	return sp.inst.GetFunctions(ctx)
}

func (pp *pooledProvider) CallFunction(ctx context.Context, name string, args []cty.Value) (cty.Value, error) {
	sp := pp.pool.spare(ctx, pp.addr)
	if sp.inst == nil {
		return cty.NilVal, sp.diags.Err()
	}
	return sp.inst.CallFunction(ctx, name, args)
}

func (pp *pooledProvider) Stop(ctx context.Context) error {
	pp.mu.Lock()
	b := pp.bound
	pp.mu.Unlock()
	if b != nil {
		return b.Stop(ctx)
	}
	return nil
}

// Close releases nothing: the pool ends its processes at the end of the suite.
func (pp *pooledProvider) Close() error { return nil }
