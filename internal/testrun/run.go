package testrun

import (
	"context"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// runner executes one run block.
type runner struct {
	fr  *fileRunner
	run *config.TestRun
	res *RunResult
}

// runSetup is what a run executes with: the configuration under test with
// the test file's providers, the variables, and the providers. It also
// destroys the state the run leaves, at the end of the file.
type runSetup struct {
	cfg  *config.Module
	vars runVariables
	set  *provider.Set
	// origins finds which condition a failure comes from.
	origins *ruleOrigins
}

func (r *runner) fail(ds diag.Diagnostics) {
	r.res.Diagnostics = r.res.Diagnostics.Append(ds)
	r.res.Status = Error
}

func (r *runner) execute() {
	ctx := r.fr.s.cancelCtx
	opts := r.fr.s.opts
	setup, ds := r.fr.prepare(ctx, r.run)
	r.res.Diagnostics = r.res.Diagnostics.Append(ds)
	if ds.HasErrors() {
		r.res.Status = Error
		return
	}
	key := r.run.StateKey
	prior := r.fr.stateFor(key)
	p, pds := opts.Plan(ctx, setup.cfg, prior, setup.set, r.planOptions(setup))
	expect := newExpectation(r.run)
	if r.run.Command == config.PlanCommand {
		pds = expect.filter(pds, setup.origins)
		r.res.Diagnostics = r.res.Diagnostics.Append(pds)
		if pds.HasErrors() || p == nil {
			r.res.Status = Error
			return
		}
		r.fr.recordOutputs(r.run, plannedOutputs(p))
		if opts.Verbose {
			r.res.Verbose = &Verbose{Plan: p, Schemas: schemasOf(ctx, setup.set, p.PriorState, p), Config: setup.cfg}
		}
		st, more := r.assertions(ctx, setup, assertScope{Plan: p, Runs: r.fr.runOutputs(), Vars: setup.vars.Test})
		r.res.Status = r.res.Status.Merge(st)
		r.res.Diagnostics = r.res.Diagnostics.Append(more)
		return
	}
	pds = expect.planWarnings(pds, setup.origins)
	pds = withoutCheckWarnings(pds, setup.origins)
	if pds.HasErrors() || p == nil {
		r.fail(pds)
		return
	}
	r.res.Diagnostics = r.res.Diagnostics.Append(pds)

	r.fr.startApply(r.run, p)
	newState, ads := opts.Apply(ctx, setup.cfg, p, setup.set, apply.Options{Parallelism: opts.Parallelism, Provisioners: opts.Provisioners,
		Env: opts.Env})
	r.fr.endApply(r.run)
	if newState == nil {
		newState = p.PriorState
	}
	r.fr.recordState(key, newState, r.run, setup)
	ads = expect.filter(ads, setup.origins)
	if ads.HasErrors() {
		r.fail(ads)
		return
	}
	r.res.Diagnostics = r.res.Diagnostics.Append(ads)
	r.fr.recordOutputs(r.run, stateOutputs(newState))
	if opts.Verbose {
		r.res.Verbose = &Verbose{Plan: p, State: newState, Schemas: schemasOf(ctx, setup.set, newState, nil), Config: setup.cfg}
	}
	st, more := r.assertions(ctx, setup, assertScope{Plan: p, State: newState, Runs: r.fr.runOutputs(), Vars: setup.vars.Test})
	r.res.Status = r.res.Status.Merge(st)
	r.res.Diagnostics = r.res.Diagnostics.Append(more)
}

// planOptions returns the options of the run's plan.
func (r *runner) planOptions(setup *runSetup) planner.Options {
	opts := r.fr.s.opts
	po := planner.Options{Mode: plan.NormalMode, Variables: setup.vars.Module, SkipRefresh: !r.run.Refresh,
		Parallelism: opts.Parallelism, Env: opts.Env}
	if r.run.RefreshOnly {
		po.Mode = plan.RefreshOnlyMode
	}
	for _, t := range r.run.Target {
		if target, err := addrs.ParseTarget(t); err == nil {
			po.Targets = append(po.Targets, target)
		}
	}
	for _, t := range r.run.Replace {
		if addr, err := addrs.ParseAbsResourceInstance(t); err == nil {
			po.Replace = append(po.Replace, addr)
		}
	}
	return po
}

// prepare builds what run executes with: its configuration (loaded and
// validated once per file), the test file's providers in it, its
// variables and its providers.
func (fr *fileRunner) prepare(ctx context.Context, run *config.TestRun) (*runSetup, diag.Diagnostics) {
	file := fr.res.File
	ds := run.CheckExpectFailures()
	if ds.HasErrors() {
		return nil, ds
	}
	base, more := fr.configFor(run)
	ds = ds.Append(more)
	if ds.HasErrors() || base == nil {
		return nil, ds
	}
	runs := fr.runOutputs()
	vars, more := variablesFor(base, file, run, fr.s.opts.Variables, runs)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	cfg, mocks, more := withTestProviders(base, file, run, testContext(runs, vars.Test))
	ds = ds.Append(more)
	ds = ds.Append(withOverriddenModules(cfg, run, file))
	if ds.HasErrors() {
		return nil, ds
	}
	overrides := newOverrideSet(run, file)
	set := provider.NewSet(wrapFactories(fr.s.pool.Factories(), overrides, fr.fakesOf(run.StateKey)))
	for key, mp := range mocks {
		p := cfg.ProviderFor(mp.Name)
		pc := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: p, Alias: cfg.ProviderConfigs[key].Alias}
		set.Serve(pc, &mockProvider{addr: p, pool: fr.s.pool, mock: mp, overrides: overrides})
	}
	setup := &runSetup{cfg: cfg, vars: vars, set: set, origins: newRuleOrigins(cfg)}
	ds = ds.Append(fr.validate(base, setup))
	if ds.HasErrors() {
		return nil, ds
	}
	return setup, ds
}

// startApply notes the objects run's apply of p creates, until endApply.
func (fr *fileRunner) startApply(run *config.TestRun, p *plan.Plan) {
	var creating []addrs.AbsResourceInstance
	for _, c := range p.Changes {
		if c.Action == plan.Create || c.Action == plan.CreateThenDelete || c.Action == plan.DeleteThenCreate {
			creating = append(creating, c.Addr)
		}
	}
	fr.mu.Lock()
	fr.applying[run] = creating
	fr.mu.Unlock()
}

func (fr *fileRunner) endApply(run *config.TestRun) {
	if fr.s.cancelled() {
		// The summary of the cancellation lists what it was creating.
		return
	}
	fr.mu.Lock()
	delete(fr.applying, run)
	fr.mu.Unlock()
}

// plannedOutputs returns the root outputs a plan plans, as run.NAME gives them.
func plannedOutputs(p *plan.Plan) cty.Value {
	vals := map[string]cty.Value{}
	for name, oc := range p.Outputs {
		v := oc.After
		if v == cty.NilVal {
			v = cty.DynamicVal
		}
		vals[name] = markOutput(v, oc.Sensitive)
	}
	return cty.ObjectVal(vals)
}

// stateOutputs returns the root outputs a state records.
func stateOutputs(s *state.State) cty.Value {
	vals := map[string]cty.Value{}
	for name, ov := range s.Outputs {
		vals[name] = markOutput(ov.Value, ov.Sensitive)
	}
	return cty.ObjectVal(vals)
}

// schemasOf returns the schemas of the providers of s's objects and p's
// changes, for rendering them.
func schemasOf(ctx context.Context, set *provider.Set, s *state.State, p *plan.Plan) map[addrs.Provider]*provider.Schemas {
	providers := map[addrs.Provider]bool{}
	if s != nil {
		for _, r := range s.Resources {
			providers[r.ProviderConfig.Provider] = true
		}
	}
	if p != nil {
		for _, c := range p.Changes {
			providers[c.ProviderConfig.Provider] = true
		}
	}
	out := map[addrs.Provider]*provider.Schemas{}
	for _, addr := range slices.SortedFunc(maps.Keys(providers), func(a, b addrs.Provider) int {
		return compareStrings(a.String(), b.String())
	}) {
		if sch, ds := set.Schemas(ctx, addr); !ds.HasErrors() {
			out[addr] = sch
		}
	}
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
