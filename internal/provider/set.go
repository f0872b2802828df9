package provider

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/adaptive"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/version"
	"github.com/zclconf/go-cty/cty"
)

// Factory starts a new instance of one provider.
type Factory func() (Interface, error)

// Factories maps each available provider to its factory.
type Factories map[addrs.Provider]Factory

// Set owns the provider instances of one run: one instance per provider
// configuration instance (an AbsProviderConfig, with the instance key of a
// provider block with for_each), started and configured on first use,
// schemas fetched once per provider, all closed by Close. It is safe for
// concurrent use.
type Set struct {
	factories Factories

	// schemas and functions are fetched once per provider; instances are
	// started and configured once per provider configuration instance.
	schemas   parallel.Memo[addrs.Provider, schemaEntry]
	functions parallel.Memo[addrs.Provider, functionsEntry]
	instances parallel.Memo[addrs.AbsProviderConfig, instanceEntry]

	mu sync.Mutex
	// spares are the unconfigured instances the schemas came from, each
	// handed to the first configuration of its provider so that a
	// provider with one configuration runs one process, not two.
	spares map[addrs.Provider]Interface
	all    []Interface
	// adaptive, when set by Adapt, makes each configured instance report
	// its calls to the limiter of its configuration in limiters.
	adaptive *Adaptive
	limiters map[addrs.AbsProviderConfig]*adaptive.Limiter
	// served are the instances Serve gave, by provider configuration
	// (without instance key).
	served map[addrs.AbsProviderConfig]Interface
}

type schemaEntry struct {
	schemas *Schemas
	diags   diag.Diagnostics
	// first is the instance the schemas came from, configured or not; it
	// serves the provider's functions and validates configurations.
	first Interface
}

type functionsEntry struct {
	fns   map[string]FunctionSpec
	diags diag.Diagnostics
}

type instanceEntry struct {
	inst  Interface
	diags diag.Diagnostics
	// unknownConfig is set when the configuration had unknown values.
	unknownConfig bool
}

// NewSet returns a Set that starts providers with the given factories.
func NewSet(f Factories) *Set {
	return &Set{factories: f, spares: map[addrs.Provider]Interface{}}
}

func (s *Set) start(p addrs.Provider) (Interface, diag.Diagnostics) {
	f, ok := s.factories[p]
	if !ok {
		return nil, diag.Diagnostics{diag.Errorf("Missing required provider",
			"This configuration requires provider %s, but that provider isn't available. Run \"rig init\" to install it.", p.ForDisplay())}
	}
	inst, err := f()
	if err != nil {
		return nil, diag.Diagnostics{diag.Errorf("Failed to start provider", "Starting provider %s: %s.", p.ForDisplay(), err)}
	}
	s.mu.Lock()
	s.all = append(s.all, inst)
	s.mu.Unlock()
	return inst, nil
}

// Schemas returns the schemas of provider p, fetching them once.
func (s *Set) Schemas(ctx context.Context, p addrs.Provider) (*Schemas, diag.Diagnostics) {
	e := s.schemaEntry(ctx, p)
	return e.schemas, e.diags
}

// schemaEntry returns the schemas of provider p and the instance they came
// from, starting it and fetching them on the first call for p.
func (s *Set) schemaEntry(ctx context.Context, p addrs.Provider) *schemaEntry {
	e, _ := s.schemas.Do(p, func(e *schemaEntry) {
		inst, ds := s.start(p)
		if ds.HasErrors() {
			e.diags = ds
			return
		}
		e.schemas, e.diags = inst.GetProviderSchema(ctx)
		e.first = inst
		s.mu.Lock()
		s.spares[p] = inst
		s.mu.Unlock()
		if e.schemas == nil && !e.diags.HasErrors() {
			e.diags = e.diags.Append(diag.Errorf("Invalid provider schema", "Provider %s returned no schema.", p.ForDisplay()))
		}
	})
	return e
}

// Validator returns an instance of provider p to check configurations
// with (the Validate calls, which need no provider configuration): the
// instance its schemas came from.
func (s *Set) Validator(ctx context.Context, p addrs.Provider) (Interface, diag.Diagnostics) {
	e := s.schemaEntry(ctx, p)
	if e.diags.HasErrors() {
		return nil, e.diags
	}
	return e.first, nil
}

// Load starts the providers ps at once and fetches their schemas, so that
// a run that needs several providers waits for the slowest to start rather
// than for all of them one after another. Problems are not returned here:
// Schemas reports them to whoever asks for the provider.
func (s *Set) Load(ctx context.Context, ps []addrs.Provider) {
	var wg sync.WaitGroup
	for _, p := range ps {
		if _, ok := s.factories[p]; ok {
			wg.Go(func() { s.Schemas(ctx, p) })
		}
	}
	wg.Wait()
}

// Functions returns the provider-defined functions of provider p, fetched
// once from the instance its schemas came from. The map is shared: callers
// must not modify it.
func (s *Set) Functions(ctx context.Context, p addrs.Provider) (map[string]FunctionSpec, diag.Diagnostics) {
	e := s.schemaEntry(ctx, p)
	if e.diags.HasErrors() {
		return nil, e.diags
	}
	f, _ := s.functions.Do(p, func(f *functionsEntry) { f.fns, f.diags = e.first.GetFunctions(ctx) })
	return f.fns, f.diags
}

// CallFunction calls the function name of provider p on the instance its
// schemas came from (functions need no configuration). Errors are those of
// Interface.CallFunction.
func (s *Set) CallFunction(ctx context.Context, p addrs.Provider, name string, args []cty.Value) (cty.Value, error) {
	e := s.schemaEntry(ctx, p)
	if e.diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("call provider function %s: %w", name, e.diags.Err())
	}
	return e.first.CallFunction(ctx, name, args)
}

// ResourceTypeSchema returns the schema of a managed resource type.
func (s *Set) ResourceTypeSchema(ctx context.Context, p addrs.Provider, typeName string) (Schema, diag.Diagnostics) {
	schemas, ds := s.Schemas(ctx, p)
	if ds.HasErrors() {
		return Schema{}, ds
	}
	sch, ok := schemas.ResourceTypes[typeName]
	if !ok || sch.Block == nil {
		summary, detail := UnsupportedType(p, schemas, addrs.Managed, typeName)
		return Schema{}, ds.Append(diag.Errorf(summary, "%s", detail))
	}
	return sch, ds
}

// DataSourceSchema returns the schema of a data source.
func (s *Set) DataSourceSchema(ctx context.Context, p addrs.Provider, typeName string) (Schema, diag.Diagnostics) {
	schemas, ds := s.Schemas(ctx, p)
	if ds.HasErrors() {
		return Schema{}, ds
	}
	sch, ok := schemas.DataSources[typeName]
	if !ok || sch.Block == nil {
		summary, detail := UnsupportedType(p, schemas, addrs.Data, typeName)
		return Schema{}, ds.Append(diag.Errorf(summary, "%s", detail))
	}
	return sch, ds
}

// Configured returns the instance for provider configuration pc, starting it
// and configuring it with the value config returns on first use. Later calls
// return the same instance (or the same diagnostics).
func (s *Set) Configured(ctx context.Context, pc addrs.AbsProviderConfig, config func(*Schemas) (cty.Value, diag.Diagnostics)) (Interface, diag.Diagnostics) {
	return s.ConfiguredFrom(ctx, pc, func(sch *Schemas) (cty.Value, hcl.Body, diag.Diagnostics) {
		v, ds := config(sch)
		return v, nil, ds
	})
}

// ConfiguredFrom is Configured for a configuration config returns with the
// body it is written in (a provider block's, or nil): the provider's
// diagnostics about validating and configuring it are placed there
// (diag.Diagnostics.InBody) and name pc.
func (s *Set) ConfiguredFrom(ctx context.Context, pc addrs.AbsProviderConfig, config func(*Schemas) (cty.Value, hcl.Body, diag.Diagnostics)) (Interface, diag.Diagnostics) {
	s.mu.Lock()
	if inst, ok := s.served[pc.Config()]; ok {
		s.mu.Unlock()
		return inst, nil
	}
	s.mu.Unlock()
	e, _ := s.instances.Do(pc, func(e *instanceEntry) { s.configure(ctx, pc, config, e) })
	return e.inst, e.diags
}

// configure fills in e: the instance for provider configuration pc (the
// spare the schemas came from, or a new one), configured with the value
// config returns, or the diagnostics of failing to.
func (s *Set) configure(ctx context.Context, pc addrs.AbsProviderConfig, config func(*Schemas) (cty.Value, hcl.Body, diag.Diagnostics), e *instanceEntry) {
	schemas, ds := s.Schemas(ctx, pc.Provider)
	if ds.HasErrors() {
		e.diags = ds
		return
	}
	s.mu.Lock()
	inst := s.spares[pc.Provider]
	delete(s.spares, pc.Provider)
	s.mu.Unlock()
	if inst == nil {
		var ds2 diag.Diagnostics
		inst, ds2 = s.start(pc.Provider)
		ds = ds.Append(ds2)
	}
	if ds.HasErrors() {
		e.diags = ds
		return
	}
	if _, more := inst.GetProviderSchema(ctx); more.HasErrors() {
		e.diags = ds.Append(more)
		return
	}
	cfg, body, more := config(schemas)
	ds = ds.Append(more)
	if ds.HasErrors() {
		e.diags = ds
		return
	}
	// Providers see values without marks, and never know which are
	// sensitive: their diagnostics are kept from quoting them.
	plain, _ := cfg.UnmarkDeep()
	e.unknownConfig = !plain.IsWhollyKnown()
	ds = ds.Append(diag.WithAddress(Redacted(inst.ValidateProviderConfig(ctx, plain), cfg).InBody(body), pc))
	if ds.HasErrors() {
		e.diags = ds
		return
	}
	ds = ds.Append(diag.WithAddress(Redacted(inst.ConfigureProvider(ctx, ConfigureRequest{TerraformVersion: version.Terraform, Config: plain}), cfg).InBody(body), pc))
	e.inst, e.diags = inst, ds
	if ds.HasErrors() {
		e.inst = nil
	} else if l := s.Limiter(pc); l != nil {
		e.inst = measured{Interface: inst, lim: l}
	}
}

// Forget drops the configured instances of the provider configurations
// match selects, so that the next Configured of each starts and configures
// a new instance; the old ones are closed by Close. An apply that follows
// a plan in the same run uses it for the configurations made from
// ephemeral values, which the plan closed when it ended.
func (s *Set) Forget(match func(addrs.AbsProviderConfig) bool) {
	s.instances.Forget(match)
}

// ConfiguredKnown reports whether provider configuration pc was configured,
// by Configured, with a wholly known value, or is served (see Serve).
// Only then is a plan it made the plan apply would make. Call it only
// after Configured returned for pc.
func (s *Set) ConfiguredKnown(pc addrs.AbsProviderConfig) bool {
	s.mu.Lock()
	_, served := s.served[pc.Config()]
	s.mu.Unlock()
	if served {
		return true
	}
	e, ok := s.instances.Computed(pc)
	return ok && e.inst != nil && !e.unknownConfig
}

// Serve makes inst every instance of provider configuration pc (pc's
// instance key is ignored): Configured returns it as it is, neither
// started nor configured, and Close closes it with the others. rig test
// serves its mock providers so. Call it before the Set is used.
func (s *Set) Serve(pc addrs.AbsProviderConfig, inst Interface) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.served == nil {
		s.served = map[addrs.AbsProviderConfig]Interface{}
	}
	s.served[pc.Config()] = inst
	s.all = append(s.all, inst)
}

// Stop asks every started provider to cancel its in-flight operations.
func (s *Set) Stop(ctx context.Context) {
	s.mu.Lock()
	all := append([]Interface(nil), s.all...)
	s.mu.Unlock()
	for _, inst := range all {
		_ = inst.Stop(ctx)
	}
}

// Close closes every started provider and returns the first error.
func (s *Set) Close() error {
	s.mu.Lock()
	all := s.all
	s.all = nil
	s.mu.Unlock()
	var first error
	for _, inst := range all {
		if err := inst.Close(); err != nil && first == nil {
			first = fmt.Errorf("closing provider: %w", err)
		}
	}
	return first
}
