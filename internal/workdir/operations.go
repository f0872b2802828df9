package workdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provisioner"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statemgr"
)

// PlanOptions say what to plan: the mode and what the planning options
// select. The session supplies the rest (variables, workspace, path.cwd,
// parallelism, recorded dependencies, max_instances).
type PlanOptions struct {
	Mode        plan.Mode
	Replace     []addrs.AbsResourceInstance
	Targets     []addrs.Target
	Excludes    []addrs.Target
	SkipRefresh bool
	// Hooks observe the refresh of recorded objects; nil for none.
	Hooks plan.RefreshHooks
	// RefreshScope limits what is refreshed (-refresh=changed) and has
	// the plan list what it refreshed; nil refreshes everything.
	RefreshScope *planner.RefreshScope
	// Invoke names the actions to invoke (-invoke); the plan is then a
	// refresh-only plan that runs them.
	Invoke []addrs.AbsActionInstance
}

// Plan plans with the session's inputs. The import changes of objects
// GenerateConfig wrote blocks for carry them (GeneratedConfig).
func (s *Session) Plan(ctx context.Context, opts PlanOptions) (*plan.Plan, diag.Diagnostics) {
	start := time.Now()
	p, ds := planner.Make(ctx, s.Config, s.State, s.Providers, planner.Options{
		Mode: opts.Mode, Variables: s.Variables, Replace: opts.Replace, SkipRefresh: opts.SkipRefresh,
		Parallelism: s.Parallelism, Limits: s.Limits, Env: s.Env, Dependencies: s.Dependencies,
		Targets: opts.Targets, Excludes: opts.Excludes, Hooks: opts.Hooks, Generated: s.generated,
		RefreshScope: opts.RefreshScope, Invoke: opts.Invoke,
		RecordPreventDestroy: s.Safeguards.RecordPreventDestroy, HealthGates: s.Safeguards.Gates,
	})
	s.Dir.logPlan(p, time.Since(start))
	if !ds.HasErrors() && len(s.generated) > 0 {
		markGenerated(p, s.generated)
	}
	return p, ds
}

// GenerateConfig writes, into the new file path, a resource block for
// every import block whose target has no resource block (plan
// -generate-config-out), and reloads the configuration, which then
// includes the file, into the session; Plan then imports those objects
// once. It returns the blocks it wrote.
func (s *Session) GenerateConfig(ctx context.Context, path string) ([]planner.GeneratedResource, diag.Diagnostics) {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil, diag.Diagnostics{diag.Errorf("Target generated file already exists",
			"rig can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.")}
	}
	gen, ds := planner.GenerateConfig(ctx, s.Config, s.State, s.Providers, planner.Options{
		Variables: s.Variables, Env: s.Env, Dependencies: s.Dependencies,
	})
	if ds.HasErrors() || len(gen) == 0 {
		return nil, ds
	}
	if err := os.WriteFile(path, generatedFile(gen), 0o644); err != nil {
		return nil, ds.Append(diag.Errorf("Failed to create target generated file",
			"rig could not create the generated file (%s) in the target directory: %v.", path, err))
	}
	cfg, more := s.Dir.LoadCheckedConfig()
	s.Sources = maps.Clone(cfg.Sources)
	if ds = ds.Append(more); ds.HasErrors() {
		return gen, ds
	}
	s.Config = cfg
	s.generated = gen
	return gen, ds
}

// markGenerated records in p's import changes the blocks gen holds for
// them, which the plan shows ("config will be generated") and its JSON
// form carries as generated_config.
func markGenerated(p *plan.Plan, gen []planner.GeneratedResource) {
	blocks := map[string]string{}
	for _, g := range gen {
		blocks[g.Addr.String()] = strings.TrimSuffix(string(g.Config), "\n")
	}
	for _, c := range p.Changes {
		if c.Importing != nil && c.Deposed == addrs.NotDeposed {
			c.Importing.GeneratedConfig = blocks[c.Addr.String()]
		}
	}
}

// generatedFile is the content of a -generate-config-out file holding
// the resource blocks gen, each under a comment naming its import ID.
func generatedFile(gen []planner.GeneratedResource) []byte {
	var b bytes.Buffer
	b.WriteString("# __generated__ by rig\n# Please review these resources and move them into your main configuration files.\n")
	for _, g := range gen {
		fmt.Fprintf(&b, "\n# __generated__ by rig from %q\n", g.ID)
		b.Write(g.Config)
	}
	return b.Bytes()
}

// UseSavedPlan checks that the saved plan pf (read from path) can be
// applied to the session: the configuration is the one it was made from
// and the state the one it was planned against. A plan made without a
// state, applied where there is still none, gives the state its lineage.
func (s *Session) UseSavedPlan(pf *planfile.File, path string) diag.Diagnostics {
	if !sameSources(s.Config.Sources, pf.Config) {
		return diag.Diagnostics{diag.Errorf("Saved plan does not match the configuration",
			"The configuration files changed since the plan %s was created. Create a new plan with \"rig plan -out\" and apply that.", path)}
	}
	// With no state then and none now, the lineages are both fresh and may differ.
	fresh := s.State.Serial == 0 && pf.StateSerial == 0 && s.State.Empty()
	if !fresh && (s.State.Lineage != pf.StateLineage || s.State.Serial != pf.StateSerial) {
		return diag.Diagnostics{diag.Errorf("Saved plan is stale",
			"The given plan file can no longer be applied because the state was changed by another operation after the plan was created.")}
	}
	if fresh {
		s.State.Lineage = pf.Plan.PriorState.Lineage
	}
	return nil
}

// ApplyOptions say how to apply a plan.
type ApplyOptions struct {
	// Hooks observe each operation.
	Hooks apply.Hooks
	// Intents, when not nil, records each create's intent before its
	// provider is asked (rig.hcl's record_create_intents).
	Intents apply.IntentLog
	// Finish is apply.Options.Finish.
	Finish func() (interrupted bool)
}

// Apply executes the prepared plan pr (apply.Prepare of a plan of the
// session's configuration) with the session's providers and settings,
// persisting the state after each batch of operations, and returns the
// final state, which Persist writes. The plan and the configuration become
// the apply's (apply.Prepared.Execute): it releases what it applied as it
// goes.
func (s *Session) Apply(ctx context.Context, pr *apply.Prepared, opts ApplyOptions) (*state.State, diag.Diagnostics) {
	return pr.Execute(ctx, s.Providers, apply.Options{
		Parallelism: s.Parallelism, Limits: s.Limits, Hooks: opts.Hooks, StateWriter: s.stateWriter(), Env: s.Env,
		SpliceDependencies: s.Dependencies == plan.ReducedDependencies, Provisioners: Provisioners(), Intents: opts.Intents,
		Finish: opts.Finish,
	})
}

// Import imports existing remote objects into the state (rig import) and
// returns the new state, which Persist writes.
func (s *Session) Import(ctx context.Context, targets []planner.ImportTarget, hooks plan.ImportHooks) (*state.State, diag.Diagnostics) {
	return planner.Import(ctx, s.Config, s.State, s.Providers, targets,
		planner.ImportOptions{Variables: s.Variables, Env: s.Env, Hooks: hooks, Dependencies: s.Dependencies})
}

// Persist writes final, the state an apply or import ended with, with the
// next serial and the lineage kept (nothing when it did not change since
// the last write), retiring the journal; when the backend refuses it, the
// state goes to errored.tfstate (or to out) and the diagnostics say how to
// recover.
func (s *Session) Persist(final *state.State, out io.Writer) diag.Diagnostics {
	w := s.stateWriter()
	if err := w.WriteState(context.Background(), final); err != nil {
		return s.Dir.PersistFailed(final, w, err, out)
	}
	return nil
}

// stateWriter is the session's state writer, made on first use.
func (s *Session) stateWriter() *statemgr.Writer {
	if s.writer == nil {
		s.writer = statemgr.NewWriter(s.Store, s.State)
		if s.journalReplayed {
			// The state is not what the store holds: the journal the
			// run will begin replaces one whose operations it carries.
			s.writer.ForgetStored()
		}
	}
	return s.writer
}

// Provisioners returns the provisioners an apply (and rig test) runs.
// Their commands stop at the first interrupt: the apply's context is
// cancelled then.
func Provisioners() map[string]apply.Provisioner {
	return map[string]apply.Provisioner{
		provisioner.LocalExec:  provisioner.Runner{},
		provisioner.RemoteExec: provisioner.RemoteExecRunner{},
		provisioner.File:       provisioner.FileRunner{},
	}
}

// logPlan records what a plan holds: its mode and how many changes of
// each action, and how long it took.
func (d *Dir) logPlan(p *plan.Plan, elapsed time.Duration) {
	log := d.opts.Log
	if !log.Enabled(corelog.Info) || p == nil {
		return
	}
	counts := map[string]int{}
	for _, c := range p.Changes {
		counts[c.Action.String()]++
	}
	mode := "normal"
	switch p.Mode {
	case plan.DestroyMode:
		mode = "destroy"
	case plan.RefreshOnlyMode:
		mode = "refresh-only"
	}
	attrs := []corelog.Attr{corelog.String("mode", mode), corelog.Int("changes", len(p.Changes)), corelog.Duration("elapsed", elapsed)}
	for _, a := range slices.Sorted(maps.Keys(counts)) {
		attrs = append(attrs, corelog.Int(a, counts[a]))
	}
	log.Info("plan made", attrs...)
}

// sameSources reports whether two configurations' files say the same
// thing: the same files, each with the same tokens, comments and blank
// lines aside (a .json file byte for byte).
func sameSources(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, src := range a {
		other, ok := b[name]
		if !ok {
			return false
		}
		if bytes.Equal(src, other) {
			continue
		}
		if strings.HasSuffix(name, ".json") || !sameTokens(src, other) {
			return false
		}
	}
	return true
}

// sameTokens compares two native-syntax files token by token, without
// comments and with runs of line ends taken as one.
func sameTokens(a, b []byte) bool {
	ta, tb := significantTokens(a), significantTokens(b)
	if len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i].Type != tb[i].Type || !bytes.Equal(ta[i].Bytes, tb[i].Bytes) {
			return false
		}
	}
	return true
}

func significantTokens(src []byte) hclsyntax.Tokens {
	toks, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	out := make(hclsyntax.Tokens, 0, len(toks))
	newline := func() {
		if len(out) > 0 && out[len(out)-1].Type != hclsyntax.TokenNewline {
			out = append(out, hclsyntax.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
		}
	}
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenComment:
			// A line comment ends its line.
			if bytes.HasSuffix(t.Bytes, []byte("\n")) {
				newline()
			}
		case hclsyntax.TokenNewline:
			newline()
		default:
			out = append(out, hclsyntax.Token{Type: t.Type, Bytes: t.Bytes})
		}
	}
	return out
}
