package workdir

import (
	"context"
	"io"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/timeline"
)

// RecordedApplyOptions say how to apply a plan and what to record of it.
type RecordedApplyOptions struct {
	// Prepared is the plan ready to apply (apply.Prepare of p) when
	// already built, while the plan was shown; nil prepares it.
	Prepared *apply.Prepared
	// Observe returns the hooks that observe each operation: the
	// caller's with those given, which record the log and the timeline
	// (as one value, so that the apply sees every hook interface the
	// caller's implement).
	Observe func(recorders ...apply.Hooks) apply.Hooks
	// Carried are the creates an earlier run left in flight
	// (CutOffCreates): the intents file lists them until rig recover
	// resolves them.
	Carried []apply.Intent
	// Destroy says the run is a destroy, as its timeline names it;
	// Timeline is the file -timeline names, "" for none.
	Destroy  bool
	Timeline string
	// Refresh records the refresh times of the objects the apply leaves;
	// nil records none.
	Refresh *RefreshTracking
	// SuppressForgetErrors lets a destroy that forgot objects rather
	// than delete them succeed (-suppress-forget-errors).
	SuppressForgetErrors bool
	// Applied, when set, is called once, as soon as the operations have
	// ended (or the apply could not start), before anything is recorded.
	Applied func()
	// Out receives what Persist says of a state the backend refused.
	Out io.Writer
	// Finish is apply.Options.Finish: whether the command was interrupted
	// while the operations ran.
	Finish func() (interrupted bool)
}

// AppliedRun is what an apply leaves: the final state, the record of its
// timeline (nil when none was kept) and the note saying where its page
// was written ("" for none).
type AppliedRun struct {
	Final  *state.State
	Record *timeline.Record
	Note   string
}

// ApplyRecorded applies p (Apply, which takes ownership of p and the
// session's configuration: afterwards p's addresses and actions are all
// that may be read of it) and records what the working directory keeps
// of it: each create's intent before its provider is asked, when rig.hcl
// asks for them; the timeline of the operations that ran; the final state
// (Persist) and, once it is persisted, the refresh times. The diagnostics
// leave out the deprecation warnings the plan reported already.
func (s *Session) ApplyRecorded(ctx context.Context, p *plan.Plan, opts RecordedApplyOptions) (AppliedRun, diag.Diagnostics) {
	var run AppliedRun
	applied := func() {}
	if opts.Applied != nil {
		applied = sync.OnceFunc(opts.Applied)
	}
	defer applied()
	prepared := opts.Prepared
	if prepared == nil {
		var ds diag.Diagnostics
		if prepared, ds = apply.Prepare(s.Config, p, apply.PrepareOptions{}); ds.HasErrors() {
			return run, ds
		}
	}
	intents, err := s.Dir.OpenIntents(s.Safeguards.RecordCreateIntents, opts.Carried)
	if err != nil {
		return run, diag.Diagnostics{diag.Errorf("Failed to record the creates' intents", "%s", err)}
	}
	var intentLog apply.IntentLog
	if intents != nil {
		intentLog = intents
	}
	g := prepared.Graph()
	var recorders []apply.Hooks
	if lh := s.Dir.LogHooks(); lh != nil {
		recorders = append(recorders, lh)
	}
	rec := s.NewTimelineRecorder(g, opts.Destroy)
	recorders = append(recorders, rec)
	final, ds := s.Apply(ctx, prepared, ApplyOptions{Hooks: opts.Observe(recorders...), Intents: intentLog, Finish: opts.Finish})
	applied()
	run.Final = final
	// The timeline is recorded while the final state is written: neither
	// waits for the other.
	var more diag.Diagnostics
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		run.Note, run.Record, more = s.KeepTimeline(rec, g, opts.Timeline, ds)
	}()
	// A final write covers anything not yet persisted (it is skipped when
	// nothing changed); errored.tfstate keeps what the backend refuses.
	persisted := s.Persist(final, opts.Out)
	<-kept
	ds = ds.Append(more).Append(persisted)
	if !persisted.HasErrors() {
		if err := opts.Refresh.Record(p, final, true); err != nil {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Failed to record refresh times", Detail: err.Error()})
		}
	}
	if !opts.SuppressForgetErrors {
		ds = ds.Append(forgottenError(p))
	}
	s.Dir.CloseIntents(intents, !ds.HasErrors())
	return run, withoutDeprecations(ds)
}

// forgottenError is the error a destroy ends with when it forgot objects
// rather than destroy them, as OpenTofu's: automation may take a
// successful destroy to mean everything is gone.
func forgottenError(p *plan.Plan) diag.Diagnostics {
	if p.Mode != plan.DestroyMode {
		return nil
	}
	for _, c := range p.Changes {
		if c.Action.Forgets() {
			return diag.Diagnostics{diag.Errorf("Destroy was successful but left behind forgotten instances",
				"As requested, rig has not deleted some remote objects that are no longer managed by this configuration. Those objects continue to exist in their remote system and so may continue to incur charges. Refer to the original plan for more information.\nTo suppress this error for the future 'destroy' runs, you can add the CLI flag \"-suppress-forget-errors\".")}
		}
	}
	return nil
}

// withoutDeprecations returns ds without the warnings about deprecated
// module variables and outputs: evaluating the configuration again while
// applying finds those the plan reported already.
func withoutDeprecations(ds diag.Diagnostics) diag.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Deprecation == diag.NoDeprecation {
			out = append(out, d)
		}
	}
	return out
}

// EmptyStateWarning is the refresh command's warning, as OpenTofu's, when
// the state records no managed object: there is nothing to refresh.
func EmptyStateWarning(s *state.State) diag.Diagnostics {
	for ra, r := range s.Resources {
		if ra.Resource.Mode != addrs.Managed {
			continue
		}
		for _, inst := range r.Instances {
			if inst.Current != nil || len(inst.Deposed) > 0 {
				return nil
			}
		}
	}
	return diag.Diagnostics{{Severity: diag.Warning, Summary: "Empty or non-existent state",
		Detail: "There are currently no remote objects tracked in the state, so there is nothing to refresh."}}
}

// KeepUndeclaredOutputs drops from a refresh-only plan the removal of the
// root outputs cfg does not declare, so that the refresh command keeps
// them in the state, as OpenTofu's refresh keeps them (an apply
// -refresh-only removes them).
func KeepUndeclaredOutputs(p *plan.Plan, cfg *config.Module) {
	for name := range p.Outputs {
		if _, ok := cfg.Outputs[name]; !ok {
			delete(p.Outputs, name)
		}
	}
}
