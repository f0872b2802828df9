package testrun

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
)

// fileRunner runs the run blocks of one file and cleans up after them.
// Its runs may run concurrently (parallel ones): mu guards every field
// below it.
type fileRunner struct {
	s   *suite
	res *FileResult

	mu sync.Mutex
	// states holds each state key's state and the run that last updated it.
	states map[string]*keyState
	// outputs holds the outputs of each run done, by run name: what
	// run.NAME refers to.
	outputs map[string]cty.Value
	// errored is set once a run errored: the later runs are skipped.
	errored bool
	// modules caches the configurations the runs' module blocks load, by
	// source and version.
	modules parallel.Memo[string, loadedModule]
	// validated caches the validation of each configuration under test.
	validated parallel.Memo[*config.Module, diag.Diagnostics]
	// applying holds, for each run whose apply is in progress, the objects
	// it creates: what a cancellation may leave behind.
	applying map[*config.TestRun][]addrs.AbsResourceInstance
	// fakes holds, by state key, the objects overrides made.
	fakes map[string]*fakeObjects
}

// keyState is one state of a file: what the runs with its state key built.
type keyState struct {
	state *state.State
	// run is the last run that updated the state; setup is what it ran
	// with, which destroys the state at the end.
	run   *config.TestRun
	setup *runSetup
}

type loadedModule struct {
	cfg   *config.Module
	diags diag.Diagnostics
}

func (fr *fileRunner) run() {
	fr.states = map[string]*keyState{}
	fr.outputs = map[string]cty.Value{}
	fr.applying = map[*config.TestRun][]addrs.AbsResourceInstance{}
	fr.fakes = map[string]*fakeObjects{}
	fr.res.Start = time.Now()
	fr.res.Status = Pass
	g := runGraph(fr.res.File)
	dag.Walk(context.Background(), g, func(_ context.Context, i int) error {
		fr.execute(fr.res.File.Runs[i], fr.res.Runs[i])
		return nil
	}, dag.WalkOptions[int]{Limit: fr.s.opts.RunParallelism})
	for _, rr := range fr.res.Runs {
		fr.res.Status = fr.res.Status.Merge(rr.Status)
	}
	if fr.s.cancelled() {
		fr.res.Cancelled = true
		fr.reportCancelled()
		fr.res.Elapsed = time.Since(fr.res.Start)
		return
	}
	fr.cleanup()
	fr.res.Elapsed = time.Since(fr.res.Start)
}

// runGraph orders the runs of a file: a run waits for every earlier run
// unless both are parallel, have different state keys and the later one
// does not refer to the earlier one's outputs (as Terraform orders them).
func runGraph(f *config.TestFile) *dag.Graph[int] {
	g := dag.NewSized[int](len(f.Runs))
	for i := range f.Runs {
		g.Add(i)
	}
	fileRefs := runRefs(f.Variables, nil, nil)
	for _, p := range f.Providers {
		fileRefs = append(fileRefs, bodyRunRefs(p.Config)...)
	}
	for i, r := range f.Runs {
		refs := append(runRefs(r.Variables, r.Asserts, r.ExpectFailures), fileRefs...)
		for j := range i {
			t := f.Runs[j]
			if !r.Parallel || !t.Parallel || r.StateKey == t.StateKey || containsString(refs, t.Name) {
				g.Connect(j, i)
			}
		}
	}
	return g
}

// runRefs returns the run names the expressions refer to (run.NAME).
func runRefs(vars map[string]hcl.Expression, asserts []*config.CheckRule, _ []hcl.Traversal) []string {
	var out []string
	add := func(e hcl.Expression) {
		if e == nil {
			return
		}
		for _, t := range e.Variables() {
			if t.RootName() == "run" && len(t) > 1 {
				if a, ok := t[1].(hcl.TraverseAttr); ok {
					out = append(out, a.Name)
				}
			}
		}
	}
	for _, e := range vars {
		add(e)
	}
	for _, a := range asserts {
		add(a.Condition)
		add(a.ErrorMessage)
	}
	return out
}

// bodyRunRefs returns the run names a provider block's arguments refer to.
func bodyRunRefs(body hcl.Body) []string {
	attrs, _ := body.JustAttributes()
	vars := map[string]hcl.Expression{}
	for name, a := range attrs {
		vars[name] = a.Expr
	}
	return runRefs(vars, nil, nil)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// execute runs one run block into rr.
func (fr *fileRunner) execute(run *config.TestRun, rr *RunResult) {
	fr.mu.Lock()
	errored := fr.errored
	fr.mu.Unlock()
	if errored || fr.s.isStopped() {
		rr.Status = Skip
		return
	}
	fr.s.acquire()
	defer fr.s.release()
	if fr.s.isStopped() {
		rr.Status = Skip
		return
	}
	rr.Start = time.Now()
	(&runner{fr: fr, run: run, res: rr}).execute()
	rr.Elapsed = time.Since(rr.Start)
	if rr.Status == Error {
		fr.mu.Lock()
		fr.errored = true
		fr.mu.Unlock()
	}
}

// runOutputs returns a copy of the outputs of the runs done so far.
func (fr *fileRunner) runOutputs() map[string]cty.Value {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	out := make(map[string]cty.Value, len(fr.outputs))
	for k, v := range fr.outputs {
		out[k] = v
	}
	return out
}

// configFor returns the configuration run executes: the module under test,
// or the module its module block names (loaded once per source and
// version).
func (fr *fileRunner) configFor(run *config.TestRun) (*config.Module, diag.Diagnostics) {
	if run.Module == nil {
		return fr.s.opts.Config, nil
	}
	if fr.s.opts.LoadModule == nil {
		return nil, diag.Diagnostics{diag.At(run.Module.DeclRange, "Module blocks are not supported here", "This command cannot load other modules.")}
	}
	lm, _ := fr.modules.Do(run.Module.Source+"@"+run.Module.Version, func(lm *loadedModule) {
		lm.cfg, lm.diags = fr.s.opts.LoadModule(fr.res.File, run)
		if lm.cfg != nil {
			fr.mu.Lock()
			for name, src := range lm.cfg.Sources {
				fr.res.Sources[name] = src
			}
			fr.mu.Unlock()
		}
	})
	return lm.cfg, lm.diags
}

// validate validates cfg once per file, with the providers of setup.
func (fr *fileRunner) validate(cfg *config.Module, setup *runSetup) diag.Diagnostics {
	ds, _ := fr.validated.Do(cfg, func(ds *diag.Diagnostics) {
		*ds = planner.Validate(fr.s.cancelCtx, setup.cfg, setup.set, planner.ValidateOptions{Env: lang.Env{Cwd: fr.s.opts.Cwd}, SkipProviderConfigs: true})
	})
	return *ds
}

// stateFor returns the state of key (new and empty the first time).
func (fr *fileRunner) stateFor(key string) *state.State {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if ks := fr.states[key]; ks != nil {
		return ks.state
	}
	return state.New()
}

// recordState records s as key's state, last updated by run with setup.
func (fr *fileRunner) recordState(key string, s *state.State, run *config.TestRun, setup *runSetup) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	fr.states[key] = &keyState{state: s, run: run, setup: setup}
}

// recordOutputs records the outputs of run, for run.NAME.
func (fr *fileRunner) recordOutputs(run *config.TestRun, outputs cty.Value) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	fr.outputs[run.Name] = outputs
}

// reportCancelled reports what a file cancelled part-way may have left.
func (fr *fileRunner) reportCancelled() {
	fr.mu.Lock()
	sum := &CancelSummary{File: fr.res}
	for _, key := range sortedKeys(fr.states) {
		ks := fr.states[key]
		if objs := leftObjects(ks.state); len(objs) > 0 {
			sum.States = append(sum.States, LeftState{StateKey: key, Run: ks.run, Objects: objs})
		}
	}
	for run, creating := range fr.applying {
		sum.Run, sum.Creating = run, creating
	}
	fr.mu.Unlock()
	if len(sum.States) == 0 && len(sum.Creating) == 0 {
		return
	}
	fr.s.report(func(r Reporter) { r.CancelSummary(sum) })
}

// fakesOf returns the objects overrides made in the state of key.
func (fr *fileRunner) fakesOf(key string) *fakeObjects {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	f := fr.fakes[key]
	if f == nil {
		f = &fakeObjects{objs: map[addrs.AbsResourceInstance]bool{}}
		fr.fakes[key] = f
	}
	return f
}
