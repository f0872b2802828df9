package testrun

import (
	"context"
	"fmt"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

// overrideSet finds the override of a resource instance: a run's override
// blocks first, then its file's (override_resource, override_data and
// override_ephemeral).
type overrideSet struct {
	list []*config.Override
}

func newOverrideSet(run *config.TestRun, file *config.TestFile) *overrideSet {
	var list []*config.Override
	for _, o := range append(append([]*config.Override(nil), run.Overrides...), file.Overrides...) {
		if o.Kind != config.OverrideModule {
			list = append(list, o)
		}
	}
	return &overrideSet{list: list}
}

// find returns the first override of list that targets addr; nil when none.
func findOverride(list []*config.Override, addr addrs.AbsResourceInstance) *config.Override {
	for _, o := range list {
		kind := config.OverrideResource
		switch addr.Resource.Resource.Mode {
		case addrs.Data:
			kind = config.OverrideData
		case addrs.Ephemeral:
			kind = config.OverrideEphemeral
		}
		if o.Kind == kind && targetsInstance(o.Target, addr) {
			return o
		}
	}
	return nil
}

// targetsInstance reports whether t names addr or its resource; a module
// step of t without a key stands for every instance of the call.
func targetsInstance(t addrs.Target, addr addrs.AbsResourceInstance) bool {
	if t.Kind == addrs.ModuleTarget || t.Resource != addr.Resource.Resource {
		return false
	}
	if t.Kind == addrs.InstanceTarget && t.Key != addr.Resource.Key {
		return false
	}
	if addrs.ModuleInstance(t.Module.Module()) == t.Module {
		return t.Module.Module() == addr.Module.Module()
	}
	return t.Module == addr.Module
}

// overrideValues returns what stands for the provider's answer about an
// overridden object.
func overrideValues(o *config.Override, during config.OverrideTime) mockValues {
	if o.DuringSet {
		during = o.During
	}
	return mockValues{given: o.Values, during: during, what: fmt.Sprintf("%s of %s", o.Kind.BlockType(), o.Target)}
}

// fakeObjects are the objects of one state that an override made: they
// exist in the state alone, so the provider is never asked about them,
// whether a later run overrides them or not (their delete only forgets
// them). It is safe for concurrent use.
type fakeObjects struct {
	mu   sync.Mutex
	objs map[addrs.AbsResourceInstance]bool
}

func (f *fakeObjects) set(addr addrs.AbsResourceInstance, fake bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fake {
		f.objs[addr] = true
	} else {
		delete(f.objs, addr)
	}
}

func (f *fakeObjects) has(addr addrs.AbsResourceInstance) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.objs[addr]
}

// overridingProvider is a provider whose overridden objects (those the
// run's and file's override blocks target) never reach it: their reads
// keep what is recorded, their plans and applies are answered with the
// override's values; and neither do the objects overrides made.
type overridingProvider struct {
	provider.Interface
	overrides *overrideSet
	fakes     *fakeObjects
	// opened are the ephemeral resource instances it opened itself.
	opened overriddenOpens
}

// wrapFactories returns factories whose instances answer for the
// overridden objects, and the objects overrides made, themselves.
func wrapFactories(f provider.Factories, o *overrideSet, fakes *fakeObjects) provider.Factories {
	out := make(provider.Factories, len(f))
	for addr, factory := range f {
		out[addr] = func() (provider.Interface, error) {
			inst, err := factory()
			if err != nil {
				return nil, err
			}
			return &overridingProvider{Interface: inst, overrides: o, fakes: fakes}, nil
		}
	}
	return out
}

// override returns the override of the object a call is about, or nil;
// fake says whether an override made it.
func (p *overridingProvider) override(ctx context.Context) (o *config.Override, addr addrs.AbsResourceInstance, fake bool) {
	addr, ok := provider.ResourceInstanceOf(ctx)
	if !ok {
		return nil, addr, false
	}
	return findOverride(p.overrides.list, addr), addr, p.fakes.has(addr)
}

func (p *overridingProvider) schemaOf(ctx context.Context, mode addrs.ResourceMode, typeName string) (*provider.Block, diag.Diagnostics) {
	s, ds := p.Interface.GetProviderSchema(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	return blockOf(s, mode, typeName)
}

func (p *overridingProvider) ReadResource(ctx context.Context, req provider.ReadRequest) provider.ReadResponse {
	if o, _, fake := p.override(ctx); o != nil || fake {
		return provider.ReadResponse{NewState: req.PriorState, Private: req.Private}
	}
	return p.Interface.ReadResource(ctx, req)
}

func (p *overridingProvider) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	o, addr, fake := p.override(ctx)
	switch {
	case o != nil:
		return mockPlan(ctx, p.schemaOf, overrideValues(o, config.DuringApply), addr, req)
	case fake && req.ProposedNewState.IsNull():
		return provider.PlanResponse{PlannedState: req.ProposedNewState}
	}
	return p.Interface.PlanResourceChange(ctx, req)
}

func (p *overridingProvider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	o, addr, fake := p.override(ctx)
	switch {
	case o != nil && req.PlannedState.IsNull() && !fake:
		// An object the provider made is deleted by the provider,
		// overridden or not: a test leaves nothing behind.
	case o != nil && fake, o != nil && req.PriorState.IsNull():
		resp := mockApply(ctx, p.schemaOf, overrideValues(o, config.DuringApply), addr, req)
		p.fakes.set(addr, !req.PlannedState.IsNull())
		return resp
	case o != nil:
		// The override of an object the provider made: the provider
		// keeps it, the state records the override's values.
		return mockApply(ctx, p.schemaOf, overrideValues(o, config.DuringApply), addr, req)
	case fake && req.PlannedState.IsNull():
		p.fakes.set(addr, false)
		return provider.ApplyResponse{NewState: req.PlannedState}
	}
	resp := p.Interface.ApplyResourceChange(ctx, req)
	if !resp.Diagnostics.HasErrors() {
		p.fakes.set(addr, false)
	}
	return resp
}

func (p *overridingProvider) ReadDataSource(ctx context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	o, addr, _ := p.override(ctx)
	if o == nil {
		return p.Interface.ReadDataSource(ctx, req)
	}
	return mockRead(ctx, p.schemaOf, overrideValues(o, config.DuringApply), addr, req)
}

// mockProvider serves a mock_provider configuration in place of the
// provider: with the provider's schemas and functions (its plugin must be
// installed) but without configuring it or calling it about any object.
// Objects get the values of the overrides that target them (the run's,
// the file's, then the mock_provider's own), else of their type's
// mock_resource, mock_data or mock_ephemeral block, else generated ones;
// reads keep what is recorded; deletes only forget; ephemeral resources
// open with such values (mockephemeral.go).
type mockProvider struct {
	addr      addrs.Provider
	pool      *pool
	mock      *config.MockProvider
	overrides *overrideSet
}

func (m *mockProvider) valuesFor(ctx context.Context, mode addrs.ResourceMode, typeName string) (mockValues, addrs.AbsResourceInstance) {
	addr, ok := provider.ResourceInstanceOf(ctx)
	if ok {
		if o := findOverride(m.overrides.list, addr); o != nil {
			return overrideValues(o, m.mock.During), addr
		}
		if o := findOverride(m.mock.Overrides, addr); o != nil {
			return overrideValues(o, m.mock.During), addr
		}
	}
	for _, r := range m.mock.Resources {
		if r.Mode == mode && r.Type == typeName {
			block := "mock_resource"
			switch mode {
			case addrs.Data:
				block = "mock_data"
			case addrs.Ephemeral:
				block = "mock_ephemeral"
			}
			return mockValues{given: r.Defaults, during: r.During, what: fmt.Sprintf("%s %q of mock_provider %q", block, typeName, m.mock.Key())}, addr
		}
	}
	return mockValues{during: m.mock.During}, addr
}

func (m *mockProvider) schemaOf(ctx context.Context, mode addrs.ResourceMode, typeName string) (*provider.Block, diag.Diagnostics) {
	s, ds := m.GetProviderSchema(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	return blockOf(s, mode, typeName)
}

func (m *mockProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	sp := m.pool.spare(ctx, m.addr)
	return sp.schemas, sp.diags
}

func (m *mockProvider) ValidateProviderConfig(context.Context, cty.Value) diag.Diagnostics {
	return nil
}
func (m *mockProvider) ValidateResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}
func (m *mockProvider) ValidateDataResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}
func (m *mockProvider) ConfigureProvider(context.Context, provider.ConfigureRequest) diag.Diagnostics {
	return nil
}

func (m *mockProvider) UpgradeResourceState(ctx context.Context, req provider.UpgradeRequest) provider.UpgradeResponse {
	block, ds := m.schemaOf(ctx, addrs.Managed, req.TypeName)
	if ds.HasErrors() {
		return provider.UpgradeResponse{Diagnostics: ds}
	}
	v, err := ctyjson.Unmarshal(req.RawStateJSON, block.ImpliedType())
	if err != nil {
		return provider.UpgradeResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Invalid recorded object", "%s", err)}}
	}
	return provider.UpgradeResponse{UpgradedState: v}
}

func (m *mockProvider) ReadResource(_ context.Context, req provider.ReadRequest) provider.ReadResponse {
	return provider.ReadResponse{NewState: req.PriorState, Private: req.Private}
}

func (m *mockProvider) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	mv, addr := m.valuesFor(ctx, addrs.Managed, req.TypeName)
	return mockPlan(ctx, m.schemaOf, mv, addr, req)
}

func (m *mockProvider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	mv, addr := m.valuesFor(ctx, addrs.Managed, req.TypeName)
	return mockApply(ctx, m.schemaOf, mv, addr, req)
}

func (m *mockProvider) ImportResourceState(context.Context, provider.ImportRequest) provider.ImportResponse {
	return provider.ImportResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Import with a mock provider", "A mock provider has no objects to import.")}}
}

func (m *mockProvider) MoveResourceState(_ context.Context, req provider.MoveRequest) provider.MoveResponse {
	return provider.MoveResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Move with a mock provider", "A mock provider cannot move objects to %s.", req.TargetTypeName)}}
}

func (m *mockProvider) ValidateListResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}

func (m *mockProvider) ListResource(context.Context, provider.ListRequest, func(provider.ListedObject)) diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("List with a mock provider", "A mock provider has no objects to list.")}
}

func (m *mockProvider) ReadDataSource(ctx context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	mv, addr := m.valuesFor(ctx, addrs.Data, req.TypeName)
	return mockRead(ctx, m.schemaOf, mv, addr, req)
}

func (m *mockProvider) GetFunctions(ctx context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics) {
	sp := m.pool.spare(ctx, m.addr)
	if sp.inst == nil {
		return nil, sp.diags
	}
	return sp.inst.GetFunctions(ctx)
}

func (m *mockProvider) CallFunction(ctx context.Context, name string, args []cty.Value) (cty.Value, error) {
	sp := m.pool.spare(ctx, m.addr)
	if sp.inst == nil {
		return cty.NilVal, sp.diags.Err()
	}
	return sp.inst.CallFunction(ctx, name, args)
}

func (m *mockProvider) Stop(context.Context) error { return nil }
func (m *mockProvider) Close() error               { return nil }

type schemaFunc func(ctx context.Context, mode addrs.ResourceMode, typeName string) (*provider.Block, diag.Diagnostics)

func blockOf(s *provider.Schemas, mode addrs.ResourceMode, typeName string) (*provider.Block, diag.Diagnostics) {
	byType := s.ResourceTypes
	switch mode {
	case addrs.Data:
		byType = s.DataSources
	case addrs.Ephemeral:
		byType = s.EphemeralResources
	}
	sch, ok := byType[typeName]
	if !ok || sch.Block == nil {
		return nil, diag.Diagnostics{diag.Errorf("Unknown type", "The provider has no %s type %q.", mode, typeName)}
	}
	return sch.Block, nil
}

func mockPlan(ctx context.Context, schemaOf schemaFunc, mv mockValues, addr addrs.AbsResourceInstance, req provider.PlanRequest) provider.PlanResponse {
	if req.ProposedNewState.IsNull() {
		return provider.PlanResponse{PlannedState: req.ProposedNewState}
	}
	block, ds := schemaOf(ctx, addrs.Managed, req.TypeName)
	if ds.HasErrors() {
		return provider.PlanResponse{Diagnostics: ds}
	}
	if ds = mv.check(block, addr.String()); ds.HasErrors() {
		return provider.PlanResponse{Diagnostics: ds}
	}
	planned, ds := mv.plan(block, req.ProposedNewState)
	return provider.PlanResponse{PlannedState: planned, Diagnostics: ds}
}

func mockApply(ctx context.Context, schemaOf schemaFunc, mv mockValues, addr addrs.AbsResourceInstance, req provider.ApplyRequest) provider.ApplyResponse {
	if req.PlannedState.IsNull() {
		return provider.ApplyResponse{NewState: req.PlannedState}
	}
	block, ds := schemaOf(ctx, addrs.Managed, req.TypeName)
	if ds.HasErrors() {
		return provider.ApplyResponse{Diagnostics: ds}
	}
	if ds = mv.check(block, addr.String()); ds.HasErrors() {
		return provider.ApplyResponse{Diagnostics: ds}
	}
	v, ds := mv.apply(block, req.PlannedState)
	return provider.ApplyResponse{NewState: v, Private: req.PlannedPrivate, Diagnostics: ds}
}

func mockRead(ctx context.Context, schemaOf schemaFunc, mv mockValues, addr addrs.AbsResourceInstance, req provider.ReadDataRequest) provider.ReadDataResponse {
	return mockReadMode(ctx, schemaOf, addrs.Data, mv, addr, req)
}

// mockReadMode is mockRead for a data source or (mode) an ephemeral resource.
func mockReadMode(ctx context.Context, schemaOf schemaFunc, mode addrs.ResourceMode, mv mockValues, addr addrs.AbsResourceInstance, req provider.ReadDataRequest) provider.ReadDataResponse {
	block, ds := schemaOf(ctx, mode, req.TypeName)
	if ds.HasErrors() {
		return provider.ReadDataResponse{Diagnostics: ds}
	}
	if ds = mv.check(block, addr.String()); ds.HasErrors() {
		return provider.ReadDataResponse{Diagnostics: ds}
	}
	v, ds := mv.read(block, req.Config)
	return provider.ReadDataResponse{State: v, Diagnostics: ds}
}
