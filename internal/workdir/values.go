package workdir

import (
	"context"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// StateEvaluation loads what the console evaluates against without a
// plan: the configuration, the state's objects (read without the lock) and
// the root variables (args, and ask for the required ones still unset).
// The options' provider set decodes the objects; the caller closes it.
// The options carry the run environment (Env).
// files are the variable files read, for diagnostics; the configuration
// (opts.Config) is there for them even when there are errors.
func (d *Dir) StateEvaluation(ctx context.Context, args []VarArg, ask Asker) (opts eval.Options, files map[string][]byte, ds diag.Diagnostics) {
	cfg, ds := d.LoadConfig()
	if ds.HasErrors() {
		return eval.Options{Config: cfg}, nil, ds
	}
	s, more := d.CurrentState(ctx, cfg)
	if ds = ds.Append(more); ds.HasErrors() {
		return eval.Options{Config: cfg}, nil, ds
	}
	given, files, more := d.Variables(cfg, args, ask)
	ds = ds.Append(more)
	set := provider.NewSet(d.ProviderFactories())
	variables := map[string]cty.Value{}
	for _, name := range slices.Sorted(maps.Keys(cfg.Variables)) {
		v := cfg.Variables[name]
		val, more := eval.PrepareVariable(v, given[name].Value, v.DeclRange, "var."+name)
		if v.Required() && given[name].Value == cty.NilVal {
			more = nil // an unset required variable is unknown
		}
		ds = ds.Append(more)
		variables[name] = val
	}
	env, _ := d.Env() // path.cwd empty when it cannot be found
	return eval.Options{Config: cfg, Variables: variables, Resources: planner.StateValues(ctx, cfg, s, set), Providers: set, Env: env}, files, ds
}

// PlannedEvaluation is what the console evaluates against with a plan p
// the session made: the values it plans (unknown where only the apply
// can know them), its variables and the session's providers and run
// environment.
func (s *Session) PlannedEvaluation(ctx context.Context, p *plan.Plan) eval.Options {
	return eval.Options{Config: s.Config, Variables: p.Variables, Resources: planner.PlannedValues(ctx, s.Config, p, s.Providers),
		Providers: s.Providers, Env: s.Env}
}
