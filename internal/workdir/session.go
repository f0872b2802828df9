package workdir

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statemgr"
)

// defaultParallelism is how many operations run at once when neither
// -parallelism nor rig.hcl says.
const defaultParallelism = 10

// OpenOptions say what an operation needs of the working directory.
type OpenOptions struct {
	// Operation names the operation in the state lock: OperationTypePlan,
	// OperationTypeApply or OperationTypeImport.
	Operation string
	// Lock takes the state lock, waiting up to its timeout. Without it the
	// journal of a crashed run is read with the state but neither folded
	// nor removed (it may be a running apply's).
	Lock LockOptions
	// AllowEmpty accepts a working directory without configuration files
	// (a destroy plans to delete whatever the state holds, a refresh
	// refreshes it, a saved plan carries its own configuration).
	AllowEmpty bool
	// Vars are -var and -var-file, in order. SkipVariables collects none:
	// a saved plan carries its own.
	Vars          []VarArg
	SkipVariables bool
	// Ask asks for a required variable without a value; nil asks nothing.
	Ask Asker
	// Parallelism is -parallelism when given; 0 takes rig.hcl's, else 10.
	Parallelism int
	// Limits are the -limit options, over rig.hcl's limits of the same name.
	Limits []apply.Limit
	// Guard is told what to clean up if rig exits part-way, and of the
	// recovery of a crashed run's journal, which must not be cut short;
	// nil for none.
	Guard Guard
}

// Guard is what an interrupt handler needs to know of an operation.
type Guard interface {
	// OnExit registers cleanup, run (once) if rig exits on an interrupt.
	OnExit(cleanup func())
	// BeginWriting marks a phase that changes state, until the returned
	// function is called: an interrupt must then stop rig gracefully.
	BeginWriting() (end func())
}

// Session is a working directory opened for an operation: its checked
// configuration, its state store (locked unless the options said not to)
// and the state it holds (a crashed run's journal recovered), the root
// variables, the providers, and the run settings. The command that opened
// it owns it and closes it.
type Session struct {
	// Dir is the working directory.
	Dir *Dir
	// Config is the configuration; GenerateConfig replaces it.
	Config *config.Module
	// Store is the workspace's state store and State the state it holds.
	Store backend.Store
	State *state.State
	// Variables are the root variable values; nil with SkipVariables.
	Variables map[string]planner.InputValue
	// Providers start and serve the configuration's providers.
	Providers *provider.Set
	// Sources are the files read (configuration, rig.hcl, variable
	// files), for the snippets of diagnostics.
	Sources map[string][]byte
	// Env is the run's environment, built once here and passed down to
	// every plan, apply and import of the session: the selected
	// workspace, path.cwd and rig.hcl's max_instances (0: the default).
	lang.Env
	// Parallelism and Limits bound the operations that run at once: the
	// options' over rig.hcl's.
	Parallelism int
	Limits      []apply.Limit
	// Dependencies is rig.hcl's recorded_dependencies.
	Dependencies plan.DependencyMode
	// RefreshChanged is rig.hcl's refresh = "changed", RefreshMaxAge its
	// refresh_max_age and ProgressInterval its progress_interval (0: the
	// defaults).
	RefreshChanged   bool
	RefreshMaxAge    time.Duration
	ProgressInterval time.Duration
	// Safeguards are rig.hcl's settings of rig's safeguards.
	Safeguards Safeguards

	// generated are the objects GenerateConfig imported, which Plan uses
	// rather than importing them again.
	generated []planner.GeneratedResource
	// writer persists the state (Persist), made on first use.
	writer *statemgr.Writer
	// journalReplayed says the state holds a journal's operations read
	// without the lock (-lock=false): the store's snapshot lacks them.
	journalReplayed bool
	unlock          func()
	closeOnce       sync.Once
}

// Open loads everything an operation needs and takes the state lock. The
// session is never nil: on errors it holds what was loaded (its Sources
// for the diagnostics), and must be closed all the same.
func (d *Dir) Open(ctx context.Context, opts OpenOptions) (*Session, diag.Diagnostics) {
	s := &Session{Dir: d, Sources: map[string][]byte{}, Env: lang.Env{Workspace: d.Workspace()}}
	if opts.Guard != nil {
		opts.Guard.OnExit(s.Close)
	}
	cfg, ds := d.LoadCheckedConfig()
	if cfg != nil {
		// A copy: variable and settings files shown in diagnostics are
		// not part of the configuration (a saved plan records its files).
		s.Sources = maps.Clone(cfg.Sources)
	}
	if ds.HasErrors() {
		return s, ds
	}
	if IsEmptyConfig(cfg) && !opts.AllowEmpty {
		return s, ds.Append(d.NoConfigurationDiag(opts.Operation))
	}
	s.Config = cfg
	cwd, more := d.Cwd()
	if ds = ds.Append(more); ds.HasErrors() {
		return s, ds
	}
	s.Cwd = cwd
	st, src, more := d.LoadSettings()
	if src != nil {
		s.Sources[SettingsFile] = src
	}
	ds = ds.Append(more)
	if ds.HasErrors() {
		return s, ds
	}
	s.Parallelism = opts.Parallelism
	if s.Parallelism == 0 {
		s.Parallelism = st.Parallelism
	}
	if s.Parallelism == 0 {
		s.Parallelism = defaultParallelism
	}
	s.Limits = mergeLimits(st.Limits, opts.Limits)
	s.Dependencies = st.Dependencies
	s.MaxInstances = st.MaxInstances
	s.RefreshChanged, s.RefreshMaxAge, s.ProgressInterval = st.RefreshChanged, st.RefreshMaxAge, st.ProgressInterval
	s.Safeguards = st.Safeguards
	store, more := d.StateStore(ctx, cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return s, ds
	}
	s.Store = store
	if opts.Lock.Lock {
		unlock, more := d.LockState(ctx, store, opts.Operation, opts.Lock.Timeout)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return s, ds
		}
		s.unlock = unlock
	}
	st8, more := ReadState(ctx, store)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return s, ds
	}
	// A run that crashed left its completed operations in the journal:
	// fold them into the state file before anything else (we hold the
	// lock). Without the lock the journal may be a running apply's: it is
	// read, never folded or removed.
	if opts.Lock.Lock {
		end := func() {}
		if opts.Guard != nil {
			end = opts.Guard.BeginWriting()
		}
		ds = ds.Append(statemgr.Recover(ctx, store, st8))
		end()
	} else {
		replayed, more := statemgr.Replay(ctx, store, st8)
		ds = ds.Append(more)
		s.journalReplayed = replayed
		if replayed && !more.HasErrors() {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "State journal read without the lock",
				Detail: "The state has a journal of operations from a run that is still going on or was interrupted. Without the lock (-lock=false) rig read it together with the state but left both as they are; the next run that takes the lock records them in the state."})
		}
	}
	if ds.HasErrors() {
		return s, ds
	}
	alignStateProviders(cfg, st8)
	s.State = st8
	if !opts.SkipVariables {
		vars, files, more := d.Variables(cfg, opts.Vars, opts.Ask)
		maps.Copy(s.Sources, files)
		ds = ds.Append(more)
		s.Variables = vars
	}
	ds = ds.Append(d.CheckProviders(cfg))
	if ds.HasErrors() {
		return s, ds
	}
	s.Providers = provider.NewSet(d.ProviderFactories())
	// Calls to each provider configuration's API run at an adaptive
	// concurrency: up to the parallelism the user set (-parallelism or
	// rig.hcl), else up to the default read ceiling (writes stay within
	// the parallelism).
	ceiling := provider.DefaultReadCeiling
	if opts.Parallelism > 0 || st.Parallelism > 0 {
		ceiling = s.Parallelism
	}
	s.Providers.Adapt(provider.Adaptive{Ceiling: ceiling, Trace: true})
	return s, ds
}

// Close stops the providers and releases the lock; once, whoever calls
// it first (the command, or an interrupt stopping rig).
func (s *Session) Close() {
	s.closeOnce.Do(func() {
		if s.Providers != nil {
			_ = s.Providers.Close()
		}
		if s.unlock != nil {
			s.unlock()
		}
	})
}
