package planner

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ephemeral"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provisioner"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// Options configures one plan.
type Options struct {
	Mode plan.Mode
	// Variables are the root variable values given by the user.
	Variables map[string]InputValue
	// Replace forces replacement of these instances (-replace).
	Replace []addrs.AbsResourceInstance
	// SkipRefresh plans against the state as recorded, without reading remote objects (-refresh=false).
	SkipRefresh bool
	// Parallelism bounds the objects whose provider calls run at once, and
	// the graph nodes visited at once (default 10).
	Parallelism int
	// Limits cap, finer than Parallelism, the objects of some kinds whose
	// provider calls run at once.
	Limits []plan.Limit
	// Env holds terraform.workspace, path.cwd and the bound on instances.
	lang.Env
	// Now returns the plan timestamp; nil means time.Now.
	Now func() time.Time
	// Dependencies says which dependencies objects record (default: all,
	// transitively, as OpenTofu records them).
	Dependencies plan.DependencyMode
	// Hooks observes the refresh of recorded objects; nil means nobody does.
	Hooks plan.RefreshHooks
	// Targets limits the plan to these objects and what they depend on
	// (-target); Excludes plans everything but these and what depends on
	// them (-exclude). At most one of them may be set.
	Targets, Excludes []addrs.Target
	// Generated are the objects GenerateConfig imported for this plan's
	// configuration: an import block with the same target and ID takes
	// its object from here rather than importing it a second time.
	Generated []GeneratedResource
	// RefreshScope, when set, limits refreshing (-refresh=changed) and has
	// the plan list what it refreshed; nil refreshes every object.
	RefreshScope *RefreshScope
	// IgnorePreventDestroy plans to destroy objects whose resource has
	// lifecycle.prevent_destroy set: the cleanup of a test destroys what
	// the test created, as Terraform 1.14 does.
	IgnorePreventDestroy bool
	// RecordPreventDestroy records, with every object whose resource sets
	// lifecycle.prevent_destroy, where it was set (rig.hcl's
	// record_prevent_destroy). A plan refuses to destroy an object whose
	// record the state holds whatever this says.
	RecordPreventDestroy bool
	// HealthGates are rig.hcl's health_gate blocks, by the resource's
	// address in configuration ("module.app.aws_instance.web").
	HealthGates map[string]plan.HealthGate
	// Invoke names the actions to invoke (apply -invoke, Terraform 1.14),
	// in a refresh-only plan: each is planned with its configuration, to
	// run once the refreshed state is recorded.
	Invoke []addrs.AbsActionInstance
}

// Make plans the changes that bring prior in line with cfg (or destroy
// everything, in DestroyMode). providers is shared with a following apply;
// the caller closes it. A plan returned with errors has Errored set.
func Make(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, opts Options) (*plan.Plan, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	// The state as OpenTofu sees it after the moves implied by adding or
	// removing count; the caller's state is left as it is.
	prior, moved, moveDiags := applyMoves(cfg, prior)
	if !moveDiags.HasErrors() && len(moved) > 0 {
		moveDiags = moveDiags.Append(applyCrossTypeMoves(ctx, cfg, prior, moved, providers))
	}
	removed, more := removedStatements(cfg)
	moveDiags = moveDiags.Append(more)
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
		replace:     map[addrs.AbsResourceInstance]bool{},
		planned:     map[addrs.AbsResource]cty.Value{},
		byAddr:      map[addrs.AbsResourceInstance]*plan.ResourceInstanceChange{},
		schemas:     map[addrs.ConfigResource]provider.Schema{},
		handled:     map[addrs.AbsResource]bool{},
		checkFailed: map[checkInstance]bool{},
		timestamp:   now().UTC(),
		removed:     removed,
		ephemerals:  ephemeral.NewSet(),
		refresh:     newRefreshTracker(opts.RefreshScope, opts.Hooks),
	}
	if opts.Mode != plan.DestroyMode {
		p.checks = checks.NewState(cfg)
	}
	if h, ok := opts.Hooks.(ephemeral.Hooks); ok {
		p.ephemerals.Hooks = h
	}
	p.pool, p.apis, p.walkLimit = newPool(providers, opts.Parallelism, opts.Limits)
	p.limitClasses = plan.LimitClasses(cfg, opts.Limits)
	for _, a := range opts.Replace {
		p.replace[a] = true
	}
	result := &plan.Plan{Mode: opts.Mode, PrevRunState: prior, Outputs: map[string]*plan.OutputChange{}, Timestamp: p.timestamp,
		Targets: slices.Clone(opts.Targets), Excludes: slices.Clone(opts.Excludes)}
	if opts.SkipRefresh {
		result.Refresh = plan.RefreshNone
	}
	ds := moveDiags
	if !ds.HasErrors() {
		ds = ds.Append(p.run())
	}
	if !ds.HasErrors() && len(opts.Invoke) > 0 {
		ds = ds.Append(p.planInvoked(opts.Invoke))
	}
	ds = ds.Append(p.ephemerals.CloseAll(ctx))
	// An interrupt received while the plan ran makes it incomplete, also
	// when it came after the last node started: the plan is never offered
	// or saved as complete.
	if ctx.Err() != nil && !hasCancelled(ds) {
		ds = ds.Append(errCancelled)
	}
	// Before forceCBD: the state records the setting OpenTofu records, the
	// configuration's own or inherited one.
	p.recordUnchanged()
	if !ds.HasErrors() {
		forceCBD(p.changes, p.prevRun)
	}
	// Refused deletions are errors of a plan that is otherwise complete:
	// it is made whole, so that it can be shown with them marked.
	refused := p.refusedDiagnostics()
	slices.SortFunc(p.changes, func(a, b *plan.ResourceInstanceChange) int { return a.ObjectAddr().Compare(b.ObjectAddr()) })
	for _, c := range p.changes {
		if from, ok := moved[c.Addr]; ok {
			c.PrevRunAddr = from
			if c.Reason == plan.DeleteBecauseNoResourceConfig {
				// Moved to where nothing is configured.
				c.Reason = plan.DeleteBecauseNoMoveTarget
			}
		}
	}
	assignGates(p.changes, opts.HealthGates)
	result.Changes = p.changes
	slices.SortFunc(p.drift, func(a, b *plan.ResourceInstanceChange) int { return a.ObjectAddr().Compare(b.ObjectAddr()) })
	result.Drift = p.drift
	p.refresh.results(result)
	result.PriorState = p.refreshed
	result.Variables = p.variables
	result.EphemeralVariables = ephemeralVariables(cfg)
	result.Outputs = p.outputs
	if result.Outputs == nil {
		result.Outputs = map[string]*plan.OutputChange{}
	}
	result.Checks = p.checks
	result.ActionInvocations = p.sortedInvocations()
	if (!ds.HasErrors() || p.walked) && opts.Mode != plan.DestroyMode {
		result.RelevantAttributes = p.relevantAttributes(p.changes, result.Outputs)
	}
	ds = ds.Append(refused)
	ds = ds.Append(p.forgetWarnings())
	result.Errored = ds.HasErrors()
	result.Evaluated = p.walked || p.evaluated
	return result, ds
}

type planner struct {
	// depsPrior is the state whose recorded dependency lists those the
	// reference graph computes share where they are the same (nil:
	// prevRun's).
	depsPrior *state.State
	// invocations are the planned action invocations (under mu).
	invocations []*plan.ActionInvocation
	// reported holds what reportOnce reported (under mu).
	reported map[reportedKey]bool
	// refresh tracks what is refreshed, with a RefreshScope; nil otherwise.
	refresh *refreshTracker

	ctx       context.Context
	cfg       *config.Module
	providers *provider.Set
	opts      Options
	prevRun   *state.State
	timestamp time.Time

	eval      *eval.Evaluator
	variables map[string]cty.Value
	rg        *refGraph
	cbd       map[addrs.ConfigResource]cbdSource
	// removed are the configuration's removed blocks.
	removed []removedStatement
	// walked says the configuration's graph was walked (or the state's
	// objects planned for deletion): an errored plan then holds what was
	// planned (plan.Plan.Evaluated).
	walked bool
	// evaluated says the root variables' validations failed, which
	// OpenTofu checks in its plan walk: the plan is Evaluated too.
	evaluated bool
	// imports are the expanded import blocks, by target; set before the walk.
	imports map[addrs.AbsResourceInstance]importTarget
	// childImports are the import blocks of child modules, by the
	// resource they target (see gatherChildImports).
	childImports map[addrs.ConfigResource]childImport
	// generating, non-nil only while generating configuration, collects
	// the import targets that have no resource block.
	generating map[addrs.AbsResourceInstance]importTarget
	replace    map[addrs.AbsResourceInstance]bool
	outputs    map[string]*plan.OutputChange
	// sel is what -target or -exclude select; nil plans everything.
	sel *selection
	// recorded answers references to resources with their values as
	// recorded in state (a query, which plans nothing) rather than
	// unknown.
	recorded bool
	// pool runs the provider-calling work of every object (objectWork),
	// within -parallelism and the limits; limitClasses gives the limits
	// an object counts against (nil without limits).
	pool         *parallel.Pool
	limitClasses func(addrs.AbsResourceInstance, addrs.AbsProviderConfig) []int
	// apis adds a class per provider configuration to the pool when the
	// provider set adapts (nil otherwise); walkLimit bounds the nodes of
	// the reference graph visited at once.
	apis      *apiLimits
	walkLimit int

	mu        sync.Mutex // guards everything below
	refreshed *state.State
	changes   []*plan.ResourceInstanceChange
	drift     []*plan.ResourceInstanceChange
	byAddr    map[addrs.AbsResourceInstance]*plan.ResourceInstanceChange
	planned   map[addrs.AbsResource]cty.Value
	schemas   map[addrs.ConfigResource]provider.Schema
	handled   map[addrs.AbsResource]bool
	// checkFailed holds the check blocks whose scoped data source could
	// not be read: their assertions are not evaluated.
	checkFailed map[checkInstance]bool
	// refused are the errors of the deletions a recorded prevent_destroy
	// refuses (protect.go).
	refused diag.Diagnostics
	// forgotten are the objects the plan forgets, for their warnings
	// (forgetwarnings.go).
	forgotten []addrs.AbsResourceInstance
	// checks records the result of every condition evaluated; nil in a
	// destroy plan, which evaluates none.
	checks *checks.State
	// ephemerals are the ephemeral resources the plan opened, each closed
	// once what uses it is planned (ephemeral_users.go), the rest when the
	// plan ends.
	ephemerals *ephemeral.Set
}

// ResourceValue implements eval.ResourceValues with the planned values.
func (p *planner) ResourceValue(addr addrs.AbsResource) cty.Value {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.planned[addr]; ok {
		return v
	}
	if sch, ok := p.schemas[addr.InConfig()]; ok && (p.sel != nil || p.recorded) {
		// A resource the plan leaves alone: as recorded.
		return priorResourceValue(p.refreshed, addr, sch.Block)
	}
	return cty.DynamicVal
}

func (p *planner) run() diag.Diagnostics {
	var ds diag.Diagnostics
	ds = ds.Append(configChecks(p.cfg))
	if ds.HasErrors() {
		return ds
	}
	// Every provider the configuration uses starts now, all at once.
	p.providers.Load(p.ctx, configProviders(p.cfg))
	vars, more := prepareVariables(p.cfg, p.opts.Variables)
	ds = ds.Append(more)
	p.variables = vars
	p.eval, more = eval.New(p.ctx, eval.Options{Config: p.cfg, Variables: vars, Resources: p, Env: p.opts.Env,
		Timestamp: p.timestamp, Providers: p.providers})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(p.validateVariables())
	if ds.HasErrors() {
		// As in OpenTofu, whose plan walk checks them: the plan that
		// failed is shown ("Planning failed.") and saved.
		p.evaluated = true
		return ds
	}

	if ds = ds.Append(p.loadGraph()); ds.HasErrors() {
		return ds
	}
	if ds = ds.Append(validateLifecycles(p.cfg, p.eval), checkTriggerAttributes(p.cfg, p.schemas)); ds.HasErrors() {
		return ds
	}
	if len(p.opts.Targets) > 0 && len(p.opts.Excludes) > 0 {
		return ds.Append(errTargetAndExclude)
	}
	p.sel = newSelection(p.rg, p.opts.Targets, p.opts.Excludes)
	if len(p.opts.Invoke) > 0 {
		p.sel = p.invokeSelection()
	}
	if p.opts.Mode != plan.DestroyMode {
		if ds = ds.Append(p.expandImports()); ds.HasErrors() {
			return ds
		}
	}
	if p.opts.Mode == plan.DestroyMode {
		// A destroy evaluates no resource body: check them all first, as
		// OpenTofu validates the configuration before any operation. A
		// normal plan evaluates every body anyway and reports the same errors.
		ds = ds.Append(validateBodies(p.cfg, p.schemas, p.eval, nil))
		if ds.HasErrors() {
			return ds
		}
		p.walked = true
		return ds.Append(p.planDestroy())
	}
	p.expectRefreshes(func(oa addrs.ObjectAddr) bool { return p.sel.plansInstance(oa.Instance) })

	var dmu sync.Mutex
	var closer *ephemeralCloser
	if hasEphemeralResources(p.cfg) {
		closer = newEphemeralCloser(p.ctx, p.ephemerals, p.rg)
	}
	res := dag.Walk(p.ctx, p.rg.g, func(ctx context.Context, n node) error {
		defer closer.done(n)
		if !p.sel.visits(n) {
			return nil
		}
		d := p.visit(n)
		dmu.Lock()
		ds = ds.Append(d)
		dmu.Unlock()
		if d.HasErrors() {
			return d.Err()
		}
		return nil
	}, dag.WalkOptions[node]{Limit: p.walkLimit})
	p.walked = true
	if p.ctx.Err() == nil {
		ds = ds.Append(p.validateAfterWalk())
	}
	if p.ctx.Err() != nil && res.Count(dag.NotRunCancelled) > 0 && !hasCancelled(ds) {
		ds = ds.Append(errCancelled)
	}
	if ds.HasErrors() && !onlyProtectionErrors(ds) {
		// As OpenTofu, the errored plan still holds the root outputs
		// whose dependencies were all planned.
		return ds.Append(p.planOutputs(func(name string) bool {
			r, ok := res.Get(node{kind: outputNode, name: name})
			return ok && r.Outcome == dag.Done
		}))
	}
	// A replacement a prevent_destroy refuses stops only what depends on
	// it: the objects no longer configured are planned still, so that the
	// deletes a recorded protection refuses are all shown.
	if p.opts.Mode == plan.RefreshOnlyMode {
		ds = ds.Append(p.refreshOrphans())
	} else {
		ds = ds.Append(p.planOrphans())
	}
	if !ds.HasErrors() {
		ds = ds.Append(p.planOutputs(nil))
	}
	return ds
}

// loadGraph fetches the schema of every resource in the configuration tree,
// then builds the reference graph and each resource's effective
// create_before_destroy.
func (p *planner) loadGraph() diag.Diagnostics {
	if ds, ok := p.takeGraph(); ok {
		return ds
	}
	var ds diag.Diagnostics
	for _, m := range p.cfg.AllModules() {
		for _, r := range allResources(m) {
			sch, more := p.schemaOf(m, r)
			ds = ds.Append(more)
			if !more.HasErrors() {
				p.schemas[configAddr(m, r)] = sch
			}
		}
	}
	if ds.HasErrors() {
		return ds
	}
	prior := p.depsPrior
	if prior == nil {
		prior = p.prevRun
	}
	rg, more := buildRefGraphSharing(p.cfg, func(m *config.Module, r *config.Resource) (*provider.Block, bool) {
		s, ok := p.schemas[configAddr(m, r)]
		return s.Block, ok
	}, p.opts.Dependencies, recordedLists(prior))
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	p.rg = rg
	p.cbd = inheritCBD(p.cfg, rg)
	return ds
}

// visit plans one configuration object, in every instance of its module.
func (p *planner) visit(n node) diag.Diagnostics {
	m := p.cfg.Descendant(n.module)
	var ds diag.Diagnostics
	switch n.kind {
	case localNode:
		for _, mi := range p.eval.ModuleInstances(n.module) {
			_, more := p.eval.LocalValue(mi, n.name)
			ds = ds.Append(more)
		}
	case variableNode:
		if n.module.IsRoot() {
			// Root variables are prepared and validated before the walk.
			return nil
		}
		for _, mi := range p.eval.ModuleInstances(n.module) {
			_, more := p.eval.InputVariable(mi, n.name)
			ds = ds.Append(more)
			if !more.HasErrors() {
				ds = ds.Append(p.validateVariable(mi, m.Variables[n.name], beforeWalk))
			}
		}
	case moduleCallNode:
		for _, mi := range p.eval.ModuleInstances(n.module) {
			_, more := p.eval.CallExpansion(mi, n.name)
			ds = ds.Append(more)
		}
	case outputNode:
		if n.module.IsRoot() {
			// Root outputs are planned once every resource is (planOutputs).
			return nil
		}
		o := m.Outputs[n.name]
		for _, mi := range p.eval.ModuleInstances(n.module) {
			scope := p.eval.Scope(mi, lang.InstanceData{})
			for i, rule := range o.Preconditions {
				ds = ds.Append(eval.CheckRule(scope, rule, "Module output value precondition failed", "", p.ruleAt(checks.NamedObject(checks.OutputKind, mi, n.name), checks.Precondition, i)))
			}
			_, more := p.eval.OutputValue(mi, n.name)
			ds = ds.Append(more)
		}
	case checkNode:
		c := m.Check(n.name)
		for _, mi := range p.eval.ModuleInstances(n.module) {
			ds = ds.Append(p.planCheck(c, mi))
		}
	case resourceNode:
		// The instances of the resource in every instance of its module
		// are planned at once; each function returned records a
		// resource's value once its instances are planned.
		r := m.ResourceByAddr(n.resource)
		w := p.newWork()
		var record []func()
		for _, mi := range p.eval.ModuleInstances(n.module) {
			switch {
			case r.Addr.Mode == addrs.Data:
				record = append(record, p.planDataResource(w, m, r, mi))
			case r.Addr.Mode == addrs.Ephemeral:
				record = append(record, p.planEphemeralResource(w, m, r, mi))
			case p.opts.Mode == plan.RefreshOnlyMode:
				record = append(record, p.refreshResource(w, m, r, mi))
			default:
				record = append(record, p.planResource(w, m, r, mi))
			}
		}
		ds = ds.Append(w.wait())
		for _, f := range record {
			if f != nil {
				f()
			}
		}
		if p.opts.Mode == plan.RefreshOnlyMode && r.Addr.Mode == addrs.Managed && !ds.HasErrors() {
			for _, mi := range p.eval.ModuleInstances(n.module) {
				ds = ds.Append(p.refreshConditions(m, r, mi))
			}
		}
	}
	return ds
}

// configProviders returns the providers the configuration tree cfg uses:
// those of its resources and those its modules require, in the order found.
func configProviders(cfg *config.Module) []addrs.Provider {
	var out []addrs.Provider
	add := func(p addrs.Provider) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, m := range cfg.AllModules() {
		for _, r := range allResources(m) {
			name, alias := m.ProviderLocalName(r)
			add(ResolveProviderConfig(m, name, alias).Provider)
		}
		for _, key := range slices.SortedFunc(maps.Keys(m.Actions), func(a, b addrs.Action) int { return strings.Compare(a.String(), b.String()) }) {
			add(ActionProvider(m, m.Actions[key]).Provider)
		}
		for _, name := range slices.Sorted(maps.Keys(m.Terraform.RequiredProviders)) {
			add(m.Terraform.RequiredProviders[name].Provider)
		}
	}
	return out
}

// configAddr returns the configuration address of resource r of module m.
func configAddr(m *config.Module, r *config.Resource) addrs.ConfigResource {
	return addrs.ConfigResource{Module: m.Path, Resource: r.Addr}
}

// providerConfigAddr returns the provider configuration resource r of
// module m uses (see ResolveProviderConfig).
func (p *planner) providerConfigAddr(m *config.Module, r *config.Resource) addrs.AbsProviderConfig {
	name, alias := m.ProviderLocalName(r)
	return ResolveProviderConfig(m, name, alias)
}

// ResolveProviderConfig finds the provider configuration that the local
// provider name and alias stand for in module m: a provider block of m
// (but an empty one its caller passes a configuration for), else what m's
// caller passes for it in the call's providers argument,
// else (for a default configuration) the caller's own default
// configuration of the same provider, up to the root, where a default
// configuration without a block is an empty one.
func ResolveProviderConfig(m *config.Module, name, alias string) addrs.AbsProviderConfig {
	return resolveProviderConfig(m, name, alias, nil)
}

// resolveProviderConfig is ResolveProviderConfig calling passed (when not
// nil) with each module whose call passes the configuration on and the
// providers map entry it does so with.
func resolveProviderConfig(m *config.Module, name, alias string, passed func(*config.Module, config.PassedProvider)) addrs.AbsProviderConfig {
	fqn := m.ProviderFor(name)
	cur := m
	for {
		key := providerKeyOf(name, alias)
		if _, ok := cur.ProviderConfigs[key]; (ok && !cur.IsProxyProvider(key)) || cur.Parent == nil {
			return addrs.AbsProviderConfig{Module: addrs.ModuleInstance(cur.Path), Provider: fqn, Alias: alias}
		}
		_, callName := cur.Path.Parent()
		call := cur.Parent.ModuleCalls[callName]
		found := false
		for _, pp := range call.Providers {
			if pp.InChild.Name == name && pp.InChild.Alias == alias {
				name, alias, found = pp.InParent.Name, pp.InParent.Alias, true
				if passed != nil {
					passed(cur, pp)
				}
				break
			}
		}
		if !found {
			// Implicitly inherited: the caller's name for the same provider.
			name = localNameFor(cur.Parent, fqn, name)
		}
		cur = cur.Parent
	}
}

// localNameFor returns the local name module m uses for provider fqn:
// fallback when m uses it under that name too (or does not name it).
func localNameFor(m *config.Module, fqn addrs.Provider, fallback string) string {
	if m.ProviderFor(fallback) == fqn {
		return fallback
	}
	for _, name := range slices.Sorted(maps.Keys(m.Terraform.RequiredProviders)) {
		if m.Terraform.RequiredProviders[name].Provider == fqn {
			return name
		}
	}
	return fallback
}

func providerKeyOf(name, alias string) string {
	if alias == "" {
		return name
	}
	return name + "." + alias
}

func (p *planner) schemaOf(m *config.Module, r *config.Resource) (provider.Schema, diag.Diagnostics) {
	pc := p.providerConfigAddr(m, r)
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
	switch r.Addr.Mode {
	case addrs.Data:
		types = schemas.DataSources
	case addrs.Ephemeral:
		types = schemas.EphemeralResources
	}
	sch, ok := types[r.Addr.Type]
	if !ok || sch.Block == nil {
		summary, detail := provider.UnsupportedType(pc.Provider, schemas, r.Addr.Mode, r.Addr.Type)
		return provider.Schema{}, ds.Append(diag.At(r.TypeRange, summary, detail))
	}
	return sch, ds
}

// configuredProvider returns the configured instance for pc.
func (p *planner) configuredProvider(pc addrs.AbsProviderConfig) (provider.Interface, diag.Diagnostics) {
	return p.eval.ConfiguredProvider(p.ctx, p.providers, pc)
}

func (p *planner) addChange(c *plan.ResourceInstanceChange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changes = append(p.changes, c)
	if c.Action != plan.NoOp {
		p.refresh.noteTouched(c.Addr)
	}
	if c.Deposed == addrs.NotDeposed {
		p.byAddr[c.Addr] = c
	}
}

func (p *planner) changeOf(addr addrs.AbsResourceInstance) *plan.ResourceInstanceChange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byAddr[addr]
}

// validateVariables checks the validation rules of the root variables
// that refer to nothing the plan computes (see validateAfterWalk).
func (p *planner) validateVariables() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(p.cfg.Variables)) {
		ds = ds.Append(p.validateVariable(addrs.RootModule, p.cfg.Variables[name], beforeWalk))
	}
	return ds
}

// validateVariable checks the validation rules of variable v in module
// instance mi that when selects.
func (p *planner) validateVariable(mi addrs.ModuleInstance, v *config.Variable, when func(*config.CheckRule) bool) diag.Diagnostics {
	return CheckVariableRules(p.eval, mi, v, p.checks, when)
}

// unsupportedConstructs reports configuration rig parses but cannot act on
// yet: provisioners it cannot run.
func unsupportedConstructs(m *config.Module) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, mod := range m.AllModules() {
		for _, r := range allResources(mod) {
			ds = ds.Append(checkProvisioners(r))
		}
		for _, rm := range mod.Removed {
			if r := rm.ProvisionedResource(); r != nil {
				ds = ds.Append(checkProvisioners(r))
			}
		}
	}
	return ds
}

// checkProvisioners reports provisioners of types OpenTofu has none of and
// the arguments of the others, and of connection blocks, that their schema
// does not allow. A connection's required host may come from the
// resource's block or the provisioner's: it is checked when the
// provisioner runs.
func checkProvisioners(r *config.Resource) diag.Diagnostics {
	if r.Connection == nil && len(r.Provisioners) == 0 {
		return nil
	}
	var ds diag.Diagnostics
	connSchema := hcldec.ImpliedSchema(provisioner.ConnectionSpec())
	for i := range connSchema.Attributes {
		connSchema.Attributes[i].Required = false
	}
	if r.Connection != nil {
		_, more := r.Connection.Config.Content(connSchema)
		ds = ds.Append(diag.FromHCL(more))
	}
	for _, p := range r.Provisioners {
		if p.Connection != nil {
			_, more := p.Connection.Config.Content(connSchema)
			ds = ds.Append(diag.FromHCL(more))
		}
		switch spec := provisioner.Spec(p.Type); {
		case spec != nil:
			content, more := p.Config.Content(hcldec.ImpliedSchema(spec))
			ds = ds.Append(diag.FromHCL(more))
			// An argument set to a null literal counts as set here; the
			// provisioner checks the values again when it runs.
			if content != nil && !more.HasErrors() {
				if err := provisioner.CheckArguments(p.Type, func(n string) bool { _, ok := content.Attributes[n]; return ok }); err != nil {
					ds = ds.Append(diag.At(p.Config.MissingItemRange(), err.Error(), ""))
				}
			}
		default:
			ds = ds.Append(diag.At(p.TypeRange, "Failed to obtain provisioner schema",
				fmt.Sprintf("Could not load the schema for provisioner %q: unavailable provisioner %q.", p.Type, p.Type)))
		}
	}
	return ds
}

// limitNs returns the N of each limit, in order.
func limitNs(limits []plan.Limit) []int {
	out := make([]int, len(limits))
	for i, l := range limits {
		out[i] = l.N
	}
	return out
}
