package apply

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ephemeral"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// Options configures an apply.
type Options struct {
	// Intents, when not nil, records each create's intent before its
	// provider is asked (IntentLog).
	Intents IntentLog
	// Env holds terraform.workspace, path.cwd and the bound on instances.
	lang.Env
	// Parallelism bounds the operations running at once (default 10).
	Parallelism int
	// Hooks observes operations; nil means none.
	Hooks Hooks
	// StateWriter persists the state after every completed operation; nil keeps it in memory only.
	StateWriter StateWriter
	// ProgressInterval is how often Hooks.Progress is called for a running operation (default 10s).
	ProgressInterval time.Duration
	// Limits cap the operations of a provider, resource type or resource
	// running at once, within Parallelism.
	Limits []Limit
	// SpliceDependencies passes the recorded dependencies of a resource the
	// plan removes on to the objects that recorded it, once its last object
	// is deleted: for plans made with plan.ReducedDependencies.
	SpliceDependencies bool
	// Provisioners run the provisioners of each type ("local-exec"); a
	// resource whose provisioner's type is missing fails when it would run.
	Provisioners map[string]Provisioner
	// Finish, when set, is called once the operations have ended and
	// reports whether the run was interrupted meanwhile (then the apply
	// ends as interrupted, whether or not ctx was cancelled yet); from
	// then on an interrupt no longer concerns the apply
	// (interrupt.Handler.Finish).
	Finish func() (interrupted bool)
}

// Prepared is an apply ready to run: a plan, the configuration it was
// made from and the plan's operation graph, built once by Prepare. The
// graph may be shown (the order of operations, the timeline) before
// Execute runs it.
type Prepared struct {
	cfg   *config.Module
	plan  *plan.Plan
	graph *Graph
	spent atomic.Bool
}

// PrepareOptions tune Prepare.
type PrepareOptions struct {
	// DeposedKeys chooses the key each create_before_destroy replacement
	// deposes its current object under; nil means RandomDeposedKeys.
	DeposedKeys DeposedKeySource
}

// Prepare builds the operation graph of p, made from cfg, following the
// ordering rules of docs/design.md §4 (OrderWith); it fails with a
// diagnostic naming the cycle, and the settings involved, when they cannot
// all hold. Prepare only reads p and cfg: the caller may go on reading
// them (rendering the plan) while it runs and until Execute.
func Prepare(cfg *config.Module, p *plan.Plan, opts PrepareOptions) (*Prepared, diag.Diagnostics) {
	g, ds := OrderWith(p, OrderOptions{Config: cfg, DeposedKeys: opts.DeposedKeys, OmitImplied: true})
	if ds.HasErrors() {
		return nil, ds
	}
	return &Prepared{cfg: cfg, plan: p, graph: g}, ds
}

// Graph is the operation graph Execute walks.
func (pr *Prepared) Graph() *Graph { return pr.graph }

// Execute carries out the prepared plan as Apply does, and takes ownership
// of the plan and the configuration: as operations finish it drops the
// values of their changes and the configuration bodies of the resources
// whose instances are all applied, and it updates the plan's prior state
// in place to make the state it returns, so that a large plan's memory is
// given back as the apply goes. Afterwards the caller may read the plan's
// mode and its changes' addresses and actions, nothing else of the plan
// or the configuration. The values of the objects applied (and of prior
// objects expressions refer to) are kept as their state objects' JSON,
// decoded when referred to. A Prepared executes once.
func (pr *Prepared) Execute(ctx context.Context, set *provider.Set, opts Options) (*state.State, diag.Diagnostics) {
	if !pr.spent.CompareAndSwap(false, true) {
		return nil, diag.Diagnostics{diag.Errorf("Plan already applied", "This prepared plan was applied already; make a new plan.")}
	}
	return pr.execute(ctx, set, opts, true)
}

// Apply carries out p against the providers in set, recording every
// completed operation in state (persisted through opts.StateWriter before any
// dependent operation starts) and returns the resulting state. Cancelling ctx
// starts no new operation; running ones finish and are recorded. The state
// returned is valid even when diagnostics report errors. Provisioners are
// part of their operation: create-time ones run after the create, with
// the new object as self, and their failure leaves it tainted; destroy-time
// ones run before the delete of a current object that is not tainted, and
// their failure keeps it. Cancelling ctx stops the running provisioners.
// Apply leaves p and cfg as they were (it works on a copy of the prior
// state); Prepare and Execute apply a plan whose owner no longer needs it.
func Apply(ctx context.Context, cfg *config.Module, p *plan.Plan, set *provider.Set, opts Options) (_ *state.State, ds diag.Diagnostics) {
	if p.Errored {
		return p.PriorState, erroredPlan()
	}
	pr, ds := Prepare(cfg, p, PrepareOptions{})
	if ds.HasErrors() {
		return p.PriorState, ds
	}
	final, more := pr.execute(ctx, set, opts, false)
	return final, ds.Append(more)
}

func erroredPlan() diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("Cannot apply incomplete plan", "The plan has errors and cannot be applied.")}
}

// execute walks the prepared graph; owned says whether it owns the plan
// and the configuration (see Execute).
func (pr *Prepared) execute(ctx context.Context, set *provider.Set, opts Options, owned bool) (_ *state.State, ds diag.Diagnostics) {
	cfg, p, g := pr.cfg, pr.plan, pr.graph
	if p.Errored {
		return p.PriorState, erroredPlan()
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = 10
	}
	if opts.Hooks == nil {
		opts.Hooks = NoHooks{}
	}
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = 10 * time.Second
	}
	a := &applier{
		cfg: cfg, plan: p, graph: g, set: set, opts: opts,
		// Provider calls are not interrupted by ctx: a running operation finishes.
		opCtx:  context.WithoutCancel(ctx),
		values: newLiveValues(cfg, p, valueDecoder{ctx: ctx, set: set}, owned),
	}
	ev, more := eval.New(a.opCtx, eval.Options{Config: cfg, Variables: p.Variables, Resources: a.values, Env: opts.Env,
		Timestamp: p.Timestamp, Providers: set, Applying: true})
	if ds = ds.Append(more); ds.HasErrors() {
		return p.PriorState, ds
	}
	a.eval = ev
	a.ephemerals = newEphemerals(a)
	if h, ok := opts.Hooks.(ephemeral.Hooks); ok {
		a.ephemerals.set.Hooks = h
	}
	a.values.ephemeral = a.ephemerals.value
	defer func() { ds = ds.Append(a.ephemerals.close()) }()
	if ds = ds.Append(a.ephemerals.track(g)); ds.HasErrors() {
		return p.PriorState, ds
	}
	working := p.PriorState
	if !owned {
		working = working.DeepCopy()
	}
	a.taintedPrior = taintedDeletes(p)
	// Forgotten objects leave the state (and nothing else happens to them)
	// before anything runs: a forget-then-create then creates the new object
	// where there is none.
	for _, c := range p.Changes {
		if c.Action.Forgets() {
			working.SetObject(c.ObjectAddr(), nil, c.ProviderConfig)
		}
	}
	a.priorOutputs = maps.Clone(p.PriorState.Outputs)
	if p.Mode != plan.DestroyMode {
		a.checks = p.Checks.Copy()
		if a.checks == nil {
			a.checks = checks.NewState(cfg)
		}
		// An ephemeral resource's conditions count once the apply opens
		// it: one the apply does not need keeps unknown results.
		a.checks.Forget(func(c checks.Config) bool {
			return c.Kind == checks.ResourceKind && c.Resource.Mode == addrs.Ephemeral
		})
	}
	a.rec = newRecorder(working, opts.StateWriter)
	if opts.SpliceDependencies {
		a.splice = newSplicer(p)
	}

	// The refreshed state is the starting point: persist it first.
	if err := a.rec.writeAll(); err != nil {
		a.rec.close()
		return p.PriorState, ds.Append(diag.Errorf("Failed to persist state", "%s", err))
	}

	var release func(Op)
	if owned {
		release = releaser(cfg, g)
	}
	var dmu sync.Mutex
	classes, classLimits, classLimit := walkLimits(cfg, g, opts.Limits, set, opts.Parallelism)
	res := dag.Walk(ctx, g.G, func(ctx context.Context, op Op) error {
		if op.IsBarrier() {
			return nil
		}
		executed := a.rec.executing()
		d := a.run(ctx, op)
		executed()
		a.ephemerals.done(op)
		if release != nil {
			release(op)
		}
		if len(d) > 0 {
			dmu.Lock()
			ds = ds.Append(d)
			dmu.Unlock()
		}
		return d.Err()
	}, dag.WalkOptions[Op]{Limit: opts.Parallelism, Classes: classes, ClassLimits: classLimits, ClassLimit: classLimit,
		ReleasedLimit: releasedLimit(opts.Parallelism)})
	// An interrupt makes the apply fail also when it came after the last
	// operation started: as OpenTofu, rig never ends an apply it was asked
	// to stop as if it had completed.
	interrupted := ctx.Err() != nil || res.Count(dag.NotRunCancelled) > 0
	if opts.Finish != nil && opts.Finish() {
		interrupted = true
	}
	if n := res.Count(dag.NotRunCancelled); n > 0 {
		ds = ds.Append(diag.Errorf("Operation interrupted", "The apply was interrupted: %d operation(s) did not start. The state records every operation that finished.", n))
	} else if interrupted {
		ds = ds.Append(errInterruptedAfterLast)
	}

	if !ds.HasErrors() {
		ds = ds.Append(a.invokeRequested(ctx))
	}
	// When operations failed, the outputs and checks that do not depend on
	// them are still evaluated (not after an interruption).
	var part *partial
	evaluate := !ds.HasErrors()
	if !evaluate && p.Mode != plan.DestroyMode && !interrupted {
		var more diag.Diagnostics
		part, more = a.partialAfter(res)
		evaluate = part != nil && !more.HasErrors()
	}
	if evaluate && p.Mode != plan.DestroyMode {
		if part == nil {
			// Not after a partly failed apply: a rule may refer to what failed.
			ds = ds.Append(a.checkVariableRules())
		}
		more := a.checkConditions(part)
		ds = ds.Append(more)
		evaluate = !more.HasErrors()
	}
	if evaluate || p.Mode == plan.DestroyMode {
		ds = ds.Append(a.recordOutputs(part))
	}
	if a.checks != nil {
		// Recorded with the final state the caller writes, as OpenTofu
		// records them: not needed to recover from a crash.
		results := a.checks.StateJSON()
		_ = a.rec.record(nil, func(s *state.State) { s.CheckResults = results })
	}
	final := a.rec.close()
	return final, ds
}

// releaser returns a function to call when an operation has run: after
// the last operation of a change, it clears the change's values; after the
// last create or update of a managed resource, its configuration body
// (released at once when the resource has none).
func releaser(cfg *config.Module, g *Graph) func(Op) {
	pending := map[*plan.ResourceInstanceChange]*atomic.Int32{}
	bodies := map[addrs.ConfigResource]*atomic.Int32{}
	count := func(n *atomic.Int32) *atomic.Int32 {
		if n == nil {
			n = new(atomic.Int32)
		}
		n.Add(1)
		return n
	}
	for op, c := range g.Changes {
		if op.IsBarrier() || c == nil {
			continue
		}
		pending[c] = count(pending[c])
		if r, ok := configured(op); ok {
			bodies[r] = count(bodies[r])
		}
	}
	// The body of a resource that nothing creates or updates (all of them,
	// in a destroy) is never evaluated.
	for _, m := range cfg.AllModules() {
		for r, rc := range m.ManagedResources {
			if bodies[addrs.ConfigResource{Module: m.Path, Resource: r}] == nil {
				rc.Config = hcl.EmptyBody()
			}
		}
	}
	return func(op Op) {
		c := g.Changes[op]
		if c == nil {
			return
		}
		if r, ok := configured(op); ok && bodies[r].Add(-1) == 0 {
			if rc := cfg.ConfigResource(r); rc != nil {
				rc.Config = hcl.EmptyBody()
			}
		}
		if pending[c].Add(-1) == 0 {
			c.DropValues()
		}
	}
}

// configured reports the managed resource whose configuration op
// evaluates: a create or update does, a delete does not.
func configured(op Op) (addrs.ConfigResource, bool) {
	r := op.Addr.ContainingResource().InConfig()
	return r, op.Kind != OpDelete && r.Resource.Mode == addrs.Managed
}

type applier struct {
	cfg   *config.Module
	plan  *plan.Plan
	graph *Graph
	set   *provider.Set
	opts  Options
	opCtx context.Context
	eval  *eval.Evaluator
	rec   *recorder
	// splice is nil unless Options.SpliceDependencies.
	splice *splicer
	// taintedPrior holds the current objects the plan deletes that are
	// tainted; read-only during the walk.
	taintedPrior map[addrs.AbsResourceInstance]bool

	values *liveValues
	// checks are the plan's check results, updated by the conditions the
	// apply evaluates; nil for a destroy.
	checks *checks.State
	// priorOutputs are the root outputs recorded before the apply; read-only.
	priorOutputs map[string]state.OutputValue

	// exps holds the count/for_each of each resource, evaluated once.
	exps parallel.Memo[addrs.AbsResource, expansionEntry]
	// gateRounds paces the health gate checks of each batch (gaterounds.go).
	gateRounds parallel.Memo[gateRoundsKey, *gateRounds]
	// ephemerals opens the ephemeral resources the apply needs.
	ephemerals *ephemerals

	checkMu sync.Mutex // guards checkFailed
	// checkFailed holds the check blocks whose scoped data source could
	// not be read (see markCheckFailed).
	checkFailed map[checkInstance]bool
}

type expansionEntry struct {
	exp   eval.Expansion
	diags diag.Diagnostics
}

// expansion evaluates the count/for_each of resource r at addr once, at apply time.
func (a *applier) expansion(addr addrs.AbsResource, r *config.Resource) (eval.Expansion, diag.Diagnostics) {
	e, _ := a.exps.Do(addr, func(e *expansionEntry) {
		e.exp, e.diags = eval.Expand(a.eval.Scope(addr.Module, lang.InstanceData{}), r)
	})
	return e.exp, e.diags
}

func (a *applier) provider(pc addrs.AbsProviderConfig) (provider.Interface, diag.Diagnostics) {
	return a.eval.ConfiguredProvider(a.opCtx, a.set, pc)
}

func (a *applier) schema(c *plan.ResourceInstanceChange) (provider.Schema, diag.Diagnostics) {
	if c.Addr.Resource.Resource.Mode == addrs.Data {
		return a.set.DataSourceSchema(a.opCtx, c.ProviderConfig.Provider, c.Addr.Resource.Resource.Type)
	}
	return a.set.ResourceTypeSchema(a.opCtx, c.ProviderConfig.Provider, c.Addr.Resource.Resource.Type)
}

// run carries out one operation and records its result. The failure of a
// postcondition of the object an operation produced does not fail the
// operation (the hooks see it complete, the object stays recorded): its
// diagnostics follow, and they stop the operation's dependents.
func (a *applier) run(walkCtx context.Context, op Op) diag.Diagnostics {
	// A delete's prior value may be kept encoded until it runs.
	c := a.graph.Changes[op].WithBeforeDecoded()
	info := Operation{Addr: op.Addr, Deposed: op.Deposed, Action: c.Action, IDValue: idOf(c.Before)}
	switch {
	case c.Action.IsReplace():
		info.Replacing = c.Action
		if op.Kind == OpCreate {
			info.Action, info.IDValue = plan.Create, ""
		} else {
			info.Action = plan.Delete
		}
	case c.Action == plan.ForgetThenCreate:
		// The old object was forgotten before the walk: this is a create.
		info.Action, info.IDValue = plan.Create, ""
	}
	if op.Kind == OpCreate && c.Action != plan.Read && c.Action != plan.NoOp {
		// As in OpenTofu, before the operation is announced.
		if ds := a.preconditions(op); ds.HasErrors() {
			return ds
		}
	}
	a.opts.Hooks.PreApply(info)
	start := time.Now()
	stop := a.progress(info, start)
	var res Result
	var conds diag.Diagnostics
	// The before_* actions run once the operation is announced, after
	// what it depends on; if one fails, the operation does not run. As in
	// Terraform, the operation ends (for the hooks) after its after_*
	// actions.
	self := c.After
	if op.Kind == OpDelete {
		self = c.Before
	}
	_, ds := a.runActions(op, c, true, self)
	if ds.HasErrors() {
		stop()
		a.opts.Hooks.PostApply(info, Result{Elapsed: time.Since(start), Err: ds.Err()})
		return ds
	}
	var opds diag.Diagnostics
	switch {
	case op.Kind == OpDelete:
		res, opds = a.delete(walkCtx, op, c, info)
	case c.Action == plan.NoOp:
		conds = a.checkUnchanged(op, c)
		res.NewState = c.After
	default:
		res, opds = a.applyInstance(walkCtx, op, c, info)
		if !opds.HasErrors() && res.NewState != cty.NilVal {
			conds = a.objectPostconditions(op, res.NewState)
		}
	}
	ds = ds.Append(opds)
	if !opds.HasErrors() {
		// The after_* actions run once the operation's result is durable,
		// and before anything that depends on it starts.
		self := res.NewState
		if op.Kind == OpDelete {
			self = c.Before
		}
		taint, more := a.runActions(op, c, false, self)
		ds = ds.Append(more)
		if taint {
			ds = ds.Append(a.taint(op.Addr, c.ProviderConfig))
		}
	}
	stop()
	res.Elapsed = time.Since(start)
	if opds.HasErrors() {
		res.Err = opds.Err()
	}
	a.opts.Hooks.PostApply(info, res)
	return ds.Append(conds)
}

// awaitingDurability is called by an operation whose provider has answered,
// before it waits for its result to be durable. That wait takes no share of
// -parallelism, so the operation releases its slot for another to call its
// provider in the meantime; the operation still ends (for the hooks and for
// what depends on it) only once its result is durable. With -parallelism=1
// operations stay strictly one after another, persistence included.
func (a *applier) awaitingDurability(walkCtx context.Context) {
	if a.opts.Parallelism > 1 {
		dag.Release(walkCtx)
	}
}

// progress reports the operation to the hooks every ProgressInterval until
// stop is called; a timer, not a goroutine, waits for each report.
func (a *applier) progress(info Operation, start time.Time) (stop func()) {
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	mu.Lock() // t is set before the first tick uses it
	defer mu.Unlock()
	t = time.AfterFunc(a.opts.ProgressInterval, func() {
		mu.Lock()
		done := stopped
		mu.Unlock()
		if done {
			return
		}
		a.opts.Hooks.Progress(info, time.Since(start))
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			t.Reset(a.opts.ProgressInterval)
		}
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}

func idOf(v cty.Value) string {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || v.IsMarked() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return ""
	}
	id := v.GetAttr("id")
	if id.IsNull() || !id.IsKnown() || id.Type() != cty.String || id.IsMarked() {
		// A sensitive id is not shown.
		return ""
	}
	return id.AsString()
}

// taintedDeletes returns the current objects p deletes (alone or as the
// first half of a replacement) that are tainted in its prior state.
func taintedDeletes(p *plan.Plan) map[addrs.AbsResourceInstance]bool {
	tainted := map[addrs.AbsResourceInstance]bool{}
	for _, c := range p.Changes {
		if c.Deposed != addrs.NotDeposed || (c.Action != plan.Delete && !c.Action.IsReplace()) {
			continue
		}
		if obj := p.PriorState.Object(c.ObjectAddr()); obj != nil && obj.Status == state.Tainted {
			tainted[c.Addr] = true
		}
	}
	return tainted
}

// destroyProvisioners returns the resource whose destroy-time provisioners
// run before an object of addr is destroyed: its resource block, or when
// there is none, the provisioners of the removed block naming it.
func (a *applier) destroyProvisioners(addr addrs.ConfigResource) *config.Resource {
	if r := a.cfg.ConfigResource(addr); r != nil {
		return r
	}
	if rm := a.cfg.RemovedResource(addr); rm != nil && rm.Destroy {
		return rm.ProvisionedResource()
	}
	return nil
}

// delete deletes the object of a Delete change or the old object of a
// replacement, after the resource's destroy-time provisioners. As in
// OpenTofu, those run only for a current object (not for a deposed one, so
// never for a create_before_destroy replacement), only when it is not
// tainted and only while the resource is still in the configuration (or
// a removed block that destroys it has provisioners).
func (a *applier) delete(walkCtx context.Context, op Op, c *plan.ResourceInstanceChange, info Operation) (Result, diag.Diagnostics) {
	var ds diag.Diagnostics
	oaddr := addrs.ObjectAddr{Instance: op.Addr, Deposed: op.Deposed}
	prov, more := a.provider(c.ProviderConfig)
	ds = ds.Append(more)
	sch, more := a.schema(c)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return Result{}, ds
	}
	if op.Deposed == addrs.NotDeposed && !a.taintedPrior[op.Addr] && op.Addr.Resource.Resource.Mode == addrs.Managed {
		if r := a.destroyProvisioners(op.Addr.ContainingResource().InConfig()); r != nil && hasProvisioners(r, config.ProvisionerWhenDestroy) {
			ds = ds.Append(a.provision(walkCtx, info, r, config.ProvisionerWhenDestroy, c.Before, destroyInstanceData(op.Addr.Resource.Key)))
			if ds.HasErrors() {
				// The object stays as it is, and is not tainted.
				return Result{NewState: c.Before}, ds
			}
		}
	}
	ty := sch.Block.ImpliedType()
	meta, more := a.eval.ProviderMeta(a.opCtx, a.set, op.Addr.Module, c.ProviderConfig.Provider, op.Addr.Resource.Resource.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return Result{}, ds
	}
	resp := prov.ApplyResourceChange(provider.WithResourceInstance(a.opCtx, op.Addr), provider.ApplyRequest{
		TypeName: op.Addr.Resource.Resource.Type, PriorState: unmarked(c.Before),
		PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty), PlannedPrivate: c.PriorPrivate,
		ProviderMeta: meta, PlannedIdentity: c.AfterIdentity,
	})
	ds = ds.Append(diag.WithAddress(provider.Redacted(resp.Diagnostics, c.Before), oaddr))
	newVal := resp.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(ty)
	}
	if ds.HasErrors() && newVal.IsNull() {
		// A failed delete that reports no object: the object is still there as far as we know.
		return Result{NewState: c.Before}, ds
	}
	var rerr error
	a.awaitingDurability(walkCtx)
	if newVal.IsNull() {
		rerr = a.rec.recordThen([]addrs.ObjectAddr{oaddr}, func(s *state.State) { s.SetObject(oaddr, nil, c.ProviderConfig) },
			a.splice.deleted(op.Addr.ContainingResource().Unkeyed()))
	} else {
		// The provider says the object still exists: keep what it returned.
		obj, err := a.newObject(c, sch, newVal, resp.Private, resp.NewIdentity, state.Ready)
		if err != nil {
			return Result{}, ds.Append(diag.FromError(err))
		}
		rerr = a.rec.record([]addrs.ObjectAddr{oaddr}, func(s *state.State) { s.SetObject(oaddr, obj, c.ProviderConfig) })
	}
	if rerr != nil {
		ds = ds.Append(diag.Errorf("Failed to persist state", "After destroying %s: %s", oaddr, rerr))
	}
	return Result{NewState: newVal}, ds
}

// newObject builds the state object for an applied value: encoded with its
// schema (as plan.NewStateObject does for every recorded object), with its
// resource identity (none is cty.NilVal) and the change's private data,
// dependencies and create_before_destroy.
func (a *applier) newObject(c *plan.ResourceInstanceChange, sch provider.Schema, v cty.Value, private []byte, identity cty.Value, status state.ObjectStatus) (*state.Object, error) {
	obj, err := plan.NewStateObject(c.ProviderConfig.Provider, c.Addr.Resource.Resource.Type, sch, v)
	if err == nil {
		err = plan.SetIdentity(obj, sch, identity)
	}
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", c.Addr, err)
	}
	obj.Status = status
	obj.Private = private
	if c.Addr.Resource.Resource.Mode == addrs.Managed {
		// OpenTofu records no dependencies for data sources.
		obj.Dependencies = c.Dependencies
	}
	obj.CreateBeforeDestroy = c.CreateBeforeDestroy
	obj.SkipDestroy = c.SkipDestroy
	obj.PreventDestroy = c.PreventDestroy
	return obj, nil
}

// releasedLimit caps the operations whose provider has answered and that
// wait for their result to be durable: while the state is written whole
// (a journal being folded into a large state file), the operations that
// finish meanwhile wait with their results in memory, and this many are
// enough to keep the providers busy.
func releasedLimit(parallelism int) int {
	return max(64, 16*parallelism)
}

// unmarked returns v without its marks: providers are given values so.
func unmarked(v cty.Value) cty.Value {
	v, _ = v.UnmarkDeep()
	return v
}
