package testrun

import (
	"context"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// PlanFunc makes a plan: planner.Make, or a stand-in in tests.
type PlanFunc func(ctx context.Context, cfg *config.Module, prior *state.State, set *provider.Set, opts planner.Options) (*plan.Plan, diag.Diagnostics)

// ApplyFunc applies a plan: apply.Apply, or a stand-in in tests.
type ApplyFunc func(ctx context.Context, cfg *config.Module, p *plan.Plan, set *provider.Set, opts apply.Options) (*state.State, diag.Diagnostics)

// ModuleLoader loads the configuration a run block's module block names,
// with the modules it calls. It may be called from several goroutines.
type ModuleLoader func(file *config.TestFile, run *config.TestRun) (*config.Module, diag.Diagnostics)

// Options are what a suite runs with.
type Options struct {
	// Config is the module under test, with the modules it calls.
	Config *config.Module
	// Files are the test files to run, in name order.
	Files []*config.TestFile
	// LoadModule loads the modules run blocks name; nil refuses them.
	LoadModule ModuleLoader
	// Factories start the providers; the suite keeps the processes and
	// shares them between runs that configure a provider the same way.
	Factories provider.Factories
	// Variables are the values given from outside the test files: -var,
	// -var-file, .tfvars files and TF_VAR_ variables.
	Variables map[string]planner.InputValue
	// Plan and Apply default to planner.Make and apply.Apply.
	Plan  PlanFunc
	Apply ApplyFunc
	// Provisioners run the provisioners of each type during applies and
	// cleanups (apply.Options.Provisioners); nil runs none.
	Provisioners map[string]apply.Provisioner
	// Parallelism bounds the operations of one plan or apply (default 10).
	Parallelism int
	// RunParallelism bounds the runs (and cleanups) in progress at once,
	// files together: files run side by side, and so do a file's parallel
	// runs (default 10; 1 runs everything one after the other).
	RunParallelism int
	// Verbose keeps each run's plan or state for the reporter.
	Verbose bool
	// Env holds terraform.workspace, path.cwd and the bound on instances
	// of every plan, apply and assertion of the suite.
	lang.Env
	Reporter Reporter
	// Stop is closed on a first interrupt: runs in progress finish, the
	// others are skipped, every file is cleaned up. Cancel is closed on a
	// second: operations in progress are cancelled, nothing more is
	// cleaned up. Either may be nil.
	Stop, Cancel <-chan struct{}
}

// suite is the shared state of one Run.
type suite struct {
	opts Options
	pool *pool
	// slots bounds the runs and cleanups running at once, all files
	// together: each holds a slot while it plans, applies or destroys.
	slots chan struct{}
	// repMu serializes the calls of the reporter.
	repMu sync.Mutex

	stopOnce, cancelOnce sync.Once
	stopped              chan struct{}
	// cancelCtx is cancelled on the second interrupt.
	cancelCtx context.Context
	cancel    context.CancelFunc
}

// Run runs the test files of opts and returns the outcome; the reporter
// has been told everything by then. Cancelling ctx cancels as a second
// interrupt does. The provider processes are ended before it returns.
func Run(ctx context.Context, opts Options) *SuiteResult {
	if opts.Plan == nil {
		opts.Plan = planner.Make
	}
	if opts.Apply == nil {
		opts.Apply = apply.Apply
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = 10
	}
	if opts.RunParallelism <= 0 {
		opts.RunParallelism = 10
	}
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	start := time.Now()
	s := &suite{opts: opts, pool: newPool(opts.Factories), slots: make(chan struct{}, opts.RunParallelism), stopped: make(chan struct{})}
	s.cancelCtx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	defer s.cancel()
	defer s.pool.close()
	done := make(chan struct{})
	defer close(done)
	go s.watch(ctx, done)

	s.report(func(r Reporter) { r.Begin(opts.Files) })
	res := &SuiteResult{Files: make([]*FileResult, len(opts.Files))}
	finished := make([]chan struct{}, len(opts.Files))
	for i, f := range opts.Files {
		res.Files[i] = newFileResult(f)
		finished[i] = make(chan struct{})
	}
	// At most RunParallelism files run at once, taken in name order; their
	// runs share the slots.
	next := make(chan int, len(opts.Files))
	for i := range opts.Files {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(opts.RunParallelism, len(opts.Files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				(&fileRunner{s: s, res: res.Files[i]}).run()
				close(finished[i])
			}
		}()
	}
	// Files are reported in name order, each once it and those before it
	// are over, so that the report reads the same however they interleave.
	for i := range opts.Files {
		<-finished[i]
		fr := res.Files[i]
		if fr.Cancelled {
			continue
		}
		s.report(func(r Reporter) {
			r.File(fr)
			for _, c := range fr.Cleanups {
				r.Cleanup(fr, c)
			}
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Cancelled = s.cancelled()
	res.Status = Pass
	for _, fr := range res.Files {
		res.Status = res.Status.Merge(fr.Status)
	}
	if !res.Cancelled {
		s.report(func(r Reporter) { r.End(res) })
	}
	return res
}

// watch turns the interrupt channels and ctx into the suite's stop and
// cancel, until done is closed.
func (s *suite) watch(ctx context.Context, done <-chan struct{}) {
	stop, cancel := s.opts.Stop, s.opts.Cancel
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			s.doCancel()
			return
		case <-stop:
			stop = nil
			s.interrupted()
		case <-cancel:
			// A second interrupt follows a first, also when both arrived
			// before either was noticed: each is reported, in order.
			s.interrupted()
			s.doCancel()
			return
		}
	}
}

// interrupted stops the suite on a first interrupt and reports it, once.
func (s *suite) interrupted() {
	s.stopOnce.Do(func() {
		close(s.stopped)
		s.report(func(r Reporter) { r.Interrupted() })
	})
}

func (s *suite) doCancel() {
	s.stopOnce.Do(func() { close(s.stopped) })
	s.cancelOnce.Do(func() {
		s.report(func(r Reporter) { r.Cancelled() })
		s.cancel()
		s.pool.stopAll(context.Background())
	})
}

// isStopped reports whether a first interrupt (or a cancel) arrived.
func (s *suite) isStopped() bool {
	select {
	case <-s.stopped:
		return true
	default:
		return false
	}
}

func (s *suite) cancelled() bool { return s.cancelCtx.Err() != nil }

func (s *suite) acquire() { s.slots <- struct{}{} }
func (s *suite) release() { <-s.slots }

// report calls the reporter, one call at a time.
func (s *suite) report(f func(Reporter)) {
	if s.opts.Reporter == nil {
		return
	}
	s.repMu.Lock()
	defer s.repMu.Unlock()
	f(s.opts.Reporter)
}

func newFileResult(f *config.TestFile) *FileResult {
	fr := &FileResult{File: f, Sources: map[string][]byte{f.Path: f.Source}}
	for _, r := range f.Runs {
		fr.Runs = append(fr.Runs, &RunResult{Run: r})
	}
	return fr
}
