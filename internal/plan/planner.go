package plan

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// Options configures one plan.
type Options struct {
	Mode Mode
	// Variables are the root variable values given by the user.
	Variables map[string]InputValue
	// Replace forces replacement of these instances (-replace).
	Replace []addrs.AbsResourceInstance
	// SkipRefresh plans against the state as recorded, without reading remote objects (-refresh=false).
	SkipRefresh bool
	// Parallelism bounds concurrent provider calls (default 10).
	Parallelism int
	// Workspace is terraform.workspace.
	Workspace string
	// Now returns the plan timestamp; nil means time.Now.
	Now func() time.Time
}

// Make plans the changes that bring prior in line with cfg (or destroy
// everything, in DestroyMode). providers is shared with a following apply;
// the caller closes it. A plan returned with errors has Errored set.
func Make(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, opts Options) (*Plan, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	// The state as OpenTofu sees it after the moves implied by adding or
	// removing count; the caller's state is left as it is.
	prior, moveDiags := impliedMoves(cfg, prior)
	if opts.Parallelism <= 0 {
		opts.Parallelism = 10
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	p := &planner{
		ctx: ctx, cfg: cfg, providers: providers, opts: opts,
		prevRun: prior, refreshed: prior.DeepCopy(),
		replace:   map[addrs.AbsResourceInstance]bool{},
		planned:   map[addrs.Resource]cty.Value{},
		byAddr:    map[addrs.AbsResourceInstance]*ResourceInstanceChange{},
		schemas:   map[addrs.Resource]provider.Schema{},
		handled:   map[addrs.AbsResource]bool{},
		timestamp: now().UTC(),
	}
	for _, a := range opts.Replace {
		p.replace[a] = true
	}
	result := &Plan{Mode: opts.Mode, PrevRunState: prior, Outputs: map[string]*OutputChange{}, Timestamp: p.timestamp}
	ds := moveDiags.Append(p.run())
	// Before forceCBD: the state records the setting OpenTofu records, the
	// configuration's own or inherited one.
	p.recordUnchanged()
	if !ds.HasErrors() {
		forceCBD(p.changes, p.prevRun)
	}
	sort.Slice(p.changes, func(i, j int) bool { return p.changes[i].ObjectAddr().Less(p.changes[j].ObjectAddr()) })
	result.Changes = p.changes
	result.PriorState = p.refreshed
	result.Variables = p.variables
	result.Outputs = p.outputs
	if result.Outputs == nil {
		result.Outputs = map[string]*OutputChange{}
	}
	result.Errored = ds.HasErrors()
	return result, ds
}

type planner struct {
	ctx       context.Context
	cfg       *config.Module
	providers *provider.Set
	opts      Options
	prevRun   *state.State
	timestamp time.Time

	eval      *Evaluator
	variables map[string]cty.Value
	rg        *refGraph
	cbd       map[addrs.Resource]addrs.Resource
	replace   map[addrs.AbsResourceInstance]bool
	outputs   map[string]*OutputChange

	mu        sync.Mutex // guards everything below
	refreshed *state.State
	changes   []*ResourceInstanceChange
	byAddr    map[addrs.AbsResourceInstance]*ResourceInstanceChange
	planned   map[addrs.Resource]cty.Value
	schemas   map[addrs.Resource]provider.Schema
	handled   map[addrs.AbsResource]bool
}

// ResourceValue implements ResourceValues with the planned values.
func (p *planner) ResourceValue(addr addrs.Resource) cty.Value {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.planned[addr]; ok {
		return v
	}
	return cty.DynamicVal
}

func (p *planner) run() diag.Diagnostics {
	var ds diag.Diagnostics
	ds = ds.Append(unsupportedConstructs(p.cfg))
	ds = ds.Append(lang.CheckReferences(p.cfg))
	if ds.HasErrors() {
		return ds
	}
	vars, more := prepareVariables(p.cfg, p.opts.Variables)
	ds = ds.Append(more)
	p.variables = vars
	fns, more := ProviderFunctions(p.ctx, p.providers, p.cfg)
	ds = ds.Append(more)
	p.eval = &Evaluator{Config: p.cfg, Variables: vars, Resources: p, Workspace: p.opts.Workspace, Timestamp: p.timestamp, Functions: fns}
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(p.validateVariables())
	if ds.HasErrors() {
		return ds
	}

	// Schemas of every resource in configuration.
	for _, r := range allResources(p.cfg) {
		sch, more := p.schemaOf(r)
		ds = ds.Append(more)
		if !more.HasErrors() {
			p.schemas[r.Addr] = sch
		}
	}
	if ds.HasErrors() {
		return ds
	}
	rg, more := buildRefGraph(p.cfg, func(r *config.Resource) (*provider.Block, bool) {
		s, ok := p.schemas[r.Addr]
		return s.Block, ok
	})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	p.rg = rg
	p.cbd = inheritCBD(p.cfg, rg)
	if p.opts.Mode == DestroyMode {
		// A destroy evaluates no resource body: check them all first, as
		// OpenTofu validates the configuration before any operation. A
		// normal plan evaluates every body anyway and reports the same errors.
		ds = ds.Append(validateBodies(p.cfg, p.schemas, fns))
		if ds.HasErrors() {
			return ds
		}
		return ds.Append(p.planDestroy())
	}

	var dmu sync.Mutex
	res := dag.Walk(p.ctx, rg.g, func(ctx context.Context, n node) error {
		d := p.visit(n)
		dmu.Lock()
		ds = ds.Append(d)
		dmu.Unlock()
		if d.HasErrors() {
			return d.Err()
		}
		return nil
	}, dag.WalkOptions[node]{Limit: p.opts.Parallelism})
	if p.ctx.Err() != nil && res.Count(dag.NotRunCancelled) > 0 {
		ds = ds.Append(diag.Errorf("Operation cancelled", "Planning was interrupted before it finished."))
	}
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(p.planOrphans())
	if !ds.HasErrors() {
		ds = ds.Append(p.planOutputs())
	}
	return ds
}

// visit plans one configuration object.
func (p *planner) visit(n node) diag.Diagnostics {
	switch n.kind {
	case localNode:
		return p.eval.LocalDiagnostics(n.name)
	case resourceNode:
		r := p.cfg.ResourceByAddr(n.resource)
		if r.Addr.Mode == addrs.Data {
			return p.planDataResource(r)
		}
		return p.planResource(r)
	}
	return nil
}

func (p *planner) providerConfigAddr(r *config.Resource) addrs.AbsProviderConfig {
	name, alias := p.cfg.ProviderLocalName(r)
	return addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: p.cfg.ProviderFor(name), Alias: alias}
}

func (p *planner) schemaOf(r *config.Resource) (provider.Schema, diag.Diagnostics) {
	pc := p.providerConfigAddr(r)
	schemas, ds := p.providers.Schemas(p.ctx, pc.Provider)
	if ds.HasErrors() {
		for i := range ds {
			if ds[i].Subject == nil {
				rng := r.DeclRange
				ds[i].Subject = &rng
			}
		}
		return provider.Schema{}, ds
	}
	types := schemas.ResourceTypes
	kind := "resource"
	if r.Addr.Mode == addrs.Data {
		types, kind = schemas.DataSources, "data source"
	}
	sch, ok := types[r.Addr.Type]
	if !ok || sch.Block == nil {
		return provider.Schema{}, ds.Append(diag.At(r.TypeRange, "Invalid "+kind+" type",
			fmt.Sprintf("The provider %s does not support %s type %q.", pc.Provider.ForDisplay(), kind, r.Addr.Type)))
	}
	return sch, ds
}

// configuredProvider returns the configured instance for pc.
func (p *planner) configuredProvider(pc addrs.AbsProviderConfig) (provider.Interface, diag.Diagnostics) {
	return ConfiguredProvider(p.ctx, p.providers, p.cfg, p.eval, pc)
}

// ConfiguredProvider returns the instance of provider configuration pc,
// configuring it on first use from its provider block (or an empty one).
func ConfiguredProvider(ctx context.Context, set *provider.Set, cfg *config.Module, eval *Evaluator, pc addrs.AbsProviderConfig) (provider.Interface, diag.Diagnostics) {
	return set.Configured(ctx, pc, func(s *provider.Schemas) (cty.Value, diag.Diagnostics) {
		var block *config.Provider
		for _, pb := range cfg.ProviderConfigs {
			if cfg.ProviderFor(pb.Name) == pc.Provider && pb.Alias == pc.Alias {
				block = pb
				break
			}
		}
		if block == nil {
			if pc.Alias != "" {
				return cty.NilVal, diag.Diagnostics{diag.Errorf("Provider configuration not present",
					"To work with resources of %s, rig needs the provider configuration %s, which is not declared.", pc.Provider.ForDisplay(), pc)}
			}
			empty := s.Provider.Block.ImpliedType()
			return emptyObject(empty), nil
		}
		return eval.Scope(lang.InstanceData{}).EvalBlock(block.Config, s.Provider.Block.DecoderSpec())
	})
}

// emptyObject returns an object of type ty whose attributes are all null.
func emptyObject(ty cty.Type) cty.Value {
	if !ty.IsObjectType() {
		return cty.NullVal(ty)
	}
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		vals[name] = cty.NullVal(at)
	}
	return cty.ObjectVal(vals)
}

func (p *planner) addChange(c *ResourceInstanceChange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changes = append(p.changes, c)
	if c.Deposed == addrs.NotDeposed {
		p.byAddr[c.Addr] = c
	}
}

func (p *planner) changeOf(addr addrs.AbsResourceInstance) *ResourceInstanceChange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byAddr[addr]
}

func (p *planner) validateVariables() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, name := range sortedKeys(p.cfg.Variables) {
		v := p.cfg.Variables[name]
		for _, rule := range v.Validations {
			more := CheckRule(p.eval.Scope(lang.InstanceData{}), rule, "Invalid value for variable",
				fmt.Sprintf("\n\nThis was checked by the validation rule at %s.", rule.DeclRange.String()))
			for i := range more {
				// OpenTofu reports a root variable's failed validation at the
				// variable's declaration (where its value is defined).
				if more[i].Summary == "Invalid value for variable" {
					rng := v.DeclRange
					more[i].Subject = &rng
				}
			}
			ds = ds.Append(more)
		}
	}
	return ds
}

// CheckRule evaluates a condition; a known false result is an error with the
// rule's error message. Unknown results pass (they are checked at apply).
func CheckRule(scope *lang.Scope, rule *config.CheckRule, summary, suffix string) diag.Diagnostics {
	val, ds := scope.EvalExpr(rule.Condition, cty.Bool)
	if ds.HasErrors() || !val.IsKnown() {
		return ds
	}
	if val.IsNull() {
		return ds.Append(diag.At(rule.Condition.Range(), "Invalid condition result", "Condition expression must return either true or false, not null."))
	}
	if val.True() {
		return ds
	}
	msg := "(no error message)"
	if rule.ErrorMessage != nil {
		m, more := scope.EvalExpr(rule.ErrorMessage, cty.String)
		ds = ds.Append(more)
		if !more.HasErrors() && m.IsKnown() && !m.IsNull() {
			msg = m.AsString()
		}
	}
	return ds.Append(diag.At(rule.Condition.Range(), summary, msg+suffix))
}

// unsupportedConstructs reports configuration rig parses but cannot act on yet.
func unsupportedConstructs(m *config.Module) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, name := range sortedKeys(m.ModuleCalls) {
		ds = ds.Append(diag.At(m.ModuleCalls[name].DeclRange, "Unsupported block type", "rig does not support child modules yet."))
	}
	for _, r := range allResources(m) {
		if len(r.Provisioners) > 0 {
			ds = ds.Append(diag.At(r.Provisioners[0].DeclRange, "Unsupported block type", "rig does not support provisioners yet."))
		}
	}
	for _, group := range [][]*config.RawBlock{m.Moved, m.Imports, m.Removed, m.Checks} {
		for _, b := range group {
			ds = ds.Append(diag.At(b.DeclRange, "Unsupported block type", fmt.Sprintf("rig does not support %q blocks yet.", b.Type)))
		}
	}
	return ds
}

// sortedInstanceKeys returns the keys of a resource's recorded instances, sorted.
func sortedInstanceKeys(r *state.Resource) []addrs.InstanceKey {
	keys := make([]addrs.InstanceKey, 0, len(r.Instances))
	for k := range r.Instances {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b addrs.InstanceKey) int {
		switch {
		case a == b:
			return 0
		case a.Less(b):
			return -1
		}
		return 1
	})
	return keys
}
