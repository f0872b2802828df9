package planner

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Validate checks a configuration without state or variable values:
// references, cycles, resource types, every resource body against its
// schema (with all referenced values unknown), and every provider block,
// resource, data source, ephemeral resource, action and list block with
// its provider's validation call. No provider is configured.
func Validate(ctx context.Context, cfg *config.Module, providers *provider.Set, opts ValidateOptions) diag.Diagnostics {
	// The dependencies objects record are not needed here: the cheaper
	// direct ones are computed.
	p := &planner{ctx: ctx, cfg: cfg, providers: providers, schemas: map[addrs.ConfigResource]provider.Schema{},
		opts: Options{Dependencies: plan.ReducedDependencies}}
	if opts.ForPlan {
		p.opts.Dependencies = opts.Dependencies
		p.depsPrior = opts.Prior
	}
	// Every independent problem is reported: reference errors do not stop
	// the checks of resource types, cycles and bodies.
	var ds diag.Diagnostics
	ds = ds.Append(configChecks(cfg))
	graph := p.loadGraph()
	if opts.ForPlan {
		p.keepGraph(graph)
	}
	ds = ds.Append(graph)
	ds = ds.Append(checkTriggerAttributes(cfg, p.schemas))
	// The root variables have the values given, else their defaults, for
	// what is evaluated statically (a provider block's for_each);
	// everywhere else they are unknown (validationData).
	ev, more := eval.New(ctx, eval.Options{Config: cfg, Env: lang.Env{Cwd: opts.Cwd}, Providers: providers, Variables: staticVariables(cfg, opts.Variables)})
	ds = ds.Append(more)
	if !opts.SkipProviderConfigs {
		ds = ds.Append(p.validateProviderConfigs(ev))
	}
	ds = ds.Append(validateBodies(cfg, p.schemas, ev, p.validateWithProvider))
	ds = ds.Append(validateAttributeReferences(cfg, p.schemas))
	ds = ds.Append(validateOutputs(cfg, p.schemas, ev))
	ds = ds.Append(validateCallArguments(cfg, ev))
	ds = ds.Append(validateCheckMessages(cfg, ev))
	ds = ds.Append(validateActions(ctx, cfg, providers, ev))
	ds = ds.Append(validateLists(ctx, cfg, providers, ev.FunctionsOf(cfg), opts.Cwd))
	for _, m := range cfg.AllModules() {
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			ds = ds.Append(eval.CheckProviderForEach(m, m.ProviderConfigs[key]))
		}
	}
	return uniqueDiagnostics(ds)
}

// uniqueDiagnostics drops repeats of a diagnostic (two checks finding the
// same problem at the same place, about the same object), keeping the
// first.
func uniqueDiagnostics(ds diag.Diagnostics) diag.Diagnostics {
	type key struct {
		severity                 diag.Severity
		summary, detail, address string
		subject                  hcl.Range
	}
	seen := map[key]bool{}
	out := ds[:0:0]
	for _, d := range ds {
		k := key{d.Severity, d.Summary, d.Detail, d.AddressText(), hcl.Range{}}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// ValidateOptions are the settings of Validate.
type ValidateOptions struct {
	// Env holds path.cwd; validation evaluates with no workspace.
	lang.Env
	// SkipProviderConfigs leaves the provider blocks to the providers'
	// configuration: rig test sets it, since a test file's provider
	// blocks may refer to the outputs of runs that have not run yet.
	SkipProviderConfigs bool
	// ForPlan says a plan of the same configuration with the same
	// providers and Dependencies follows: validation builds the plan's
	// reference graph in that mode and keeps it for the plan, instead
	// of the cheaper direct graph.
	ForPlan      bool
	Dependencies plan.DependencyMode
	// Prior is the state that plan starts from (nil: none): the
	// dependency lists computed for it share the slices of the lists
	// its objects record where they are the same.
	Prior *state.State
	// Variables are the root variables' values given (-var, variable
	// files, TF_VAR_), which what is evaluated statically (a provider
	// block's for_each) uses, as OpenTofu does; nil: their defaults.
	Variables map[string]InputValue
}

// validateBodies decodes every resource body against its schema with all
// referenced values unknown, catching unsupported arguments, type errors and
// unknown functions before anything is planned, then hands each body that
// decoded to check (when not nil). Provider functions are called only with known
// arguments.
func validateBodies(cfg *config.Module, schemas map[addrs.ConfigResource]provider.Schema, ev *eval.Evaluator, check providerCheck) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		ds = ds.Append(validateModuleBodies(m, schemas, ev.FunctionsOf(m), ev.Cwd, check))
	}
	return ds
}

func validateModuleBodies(m *config.Module, schemas map[addrs.ConfigResource]provider.Schema, fns *lang.ProviderFunctions, cwd string, check providerCheck) diag.Diagnostics {
	scope := validationScope(m, fns, cwd)
	// The local values are evaluated first, one after another, so that
	// the bodies, checked on every core, only read them.
	data := scope.Data.(*validationData)
	for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
		data.LocalValue(name, hcl.Range{})
	}
	resources := allResources(m)
	perResource := make([]diag.Diagnostics, len(resources))
	parallel.For(len(resources), func(i int) {
		perResource[i] = validateResourceBody(scope, m, resources[i], schemas, check)
	})
	var ds diag.Diagnostics
	for _, more := range perResource {
		ds = ds.Append(more)
	}
	return ds
}

// validateResourceBody decodes the body of resource r of module m in
// scope, whose local values are already evaluated, and hands it to
// check (when not nil).
func validateResourceBody(scope *lang.Scope, m *config.Module, r *config.Resource, schemas map[addrs.ConfigResource]provider.Schema, check providerCheck) diag.Diagnostics {
	sch, ok := schemas[configAddr(m, r)]
	if !ok {
		return nil
	}
	inst := lang.InstanceData{}
	switch {
	case r.Count != nil:
		inst.CountIndex = cty.UnknownVal(cty.Number)
	case r.ForEach != nil:
		inst.EachKey, inst.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
	}
	s := *scope
	s.Instance = inst
	ds := validateLifecycleValues(scope, r, true)
	val, more := s.EvalBlock(r.Config, sch.Block.DecoderSpec())
	ds = ds.Append(more)
	if more.HasErrors() {
		return ds
	}
	ds = ds.Append(validateComputed(r, sch.Block, val))
	if r.Addr.Mode != addrs.Ephemeral {
		ds = ds.Append(diag.WithAddress(eval.EphemeralArguments(sch.Block, val, r.Config, r.DeclRange), configAddr(m, r)))
	}
	if check != nil {
		ds = ds.Append(check(m, r, val))
	}
	return ds
}

// validateLifecycles checks the prevent_destroy of every resource of the
// tree, as far as it is known without variables or state, before a plan
// evaluates it (OpenTofu's validation does so; enabled is checked when
// the plan expands the resource).
func validateLifecycles(cfg *config.Module, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		for _, r := range allResources(m) {
			ds = ds.Append(validateLifecycleValues(scope, r, false))
		}
	}
	return ds
}

// validateLifecycleValues checks the lifecycle arguments that are
// expressions, prevent_destroy and (with enabled set) enabled, as far as
// they are known without variables or state: a known value must be a
// bool.
func validateLifecycleValues(scope *lang.Scope, r *config.Resource, enabled bool) diag.Diagnostics {
	var ds diag.Diagnostics
	if enabled && r.Enabled != nil {
		v, more := scope.EvalExpr(r.Enabled, cty.DynamicPseudoType)
		ds = ds.Append(more)
		if v, _ = v.UnmarkDeep(); !more.HasErrors() && v.IsKnown() && !v.IsNull() {
			_, more = lang.EvalEnabled(scope, r.Enabled)
			ds = ds.Append(more)
		}
	}
	if r.Managed != nil && r.Managed.PreventDestroy != nil && !refersToRepetition(r.Managed.PreventDestroy) {
		expr := r.Managed.PreventDestroy
		v, more := scope.EvalExpr(expr, cty.DynamicPseudoType)
		ds = ds.Append(more)
		if v, _ = v.UnmarkDeep(); !more.HasErrors() && v.IsKnown() && !v.IsNull() {
			if _, err := convert.Convert(v, cty.Bool); err != nil {
				ds = ds.Append(diag.At(expr.Range(), "Invalid value for prevent_destroy",
					fmt.Sprintf("Resource instance %s has an invalid value for its prevent_destroy argument: %s.", r.Addr, diag.FormatError(err))))
			}
		}
	}
	return ds
}

// refersToRepetition reports whether expr refers to count or each, which
// lang.CheckReferences reports in a prevent_destroy.
func refersToRepetition(expr hcl.Expression) bool {
	for _, t := range expr.Variables() {
		if n := t.RootName(); n == "count" || n == "each" {
			return true
		}
	}
	return false
}

// validationScope is the scope module m's expressions are checked in
// without variables or state (see validationData).
func validationScope(m *config.Module, fns *lang.ProviderFunctions, cwd string) *lang.Scope {
	dir := m.SourceDir
	if dir == "" {
		dir = "."
	}
	s := &lang.Scope{ModuleDir: dir, RootDir: ".", Env: lang.Env{Cwd: cwd}, ProviderFunctions: fns}
	s.Data = &validationData{m: m, scope: s, locals: map[string]cty.Value{}}
	return s
}

// validateComputed rejects configurations that set computed-only attributes.
func validateComputed(r *config.Resource, b *provider.Block, val cty.Value) diag.Diagnostics {
	var ds diag.Diagnostics
	if val.IsNull() || !val.IsKnown() {
		return nil
	}
	for name, a := range b.Attributes {
		if a.Computed && !a.Optional && !val.GetAttr(name).IsNull() {
			rng := r.DeclRange
			if attrs, hds := r.Config.JustAttributes(); !hds.HasErrors() {
				if at, ok := attrs[name]; ok {
					rng = at.NameRange
				}
			}
			ds = ds.Append(diag.At(rng, "Invalid configuration", "The attribute \""+name+"\" of "+r.Addr.Type+" is read-only: it is computed by the provider and cannot be set."))
		}
	}
	return ds
}

// ResourceGraph returns the configuration's resources, in every module,
// and their dependencies (through local values, variables and module
// outputs too): an edge A→B means B depends on A.
func ResourceGraph(ctx context.Context, cfg *config.Module, providers *provider.Set) (*dag.Graph[addrs.ConfigResource], diag.Diagnostics) {
	// The graph shows direct dependencies.
	p := &planner{ctx: ctx, cfg: cfg, providers: providers, schemas: map[addrs.ConfigResource]provider.Schema{},
		opts: Options{Dependencies: plan.ReducedDependencies}}
	ds := p.loadGraph()
	g := dag.New[addrs.ConfigResource]()
	for _, m := range cfg.AllModules() {
		for _, r := range allResources(m) {
			g.Add(configAddr(m, r))
		}
	}
	if p.rg != nil {
		for cr, deps := range p.rg.dependencies() {
			for _, dep := range deps {
				g.Connect(dep.InConfig(), cr)
			}
		}
	}
	return g, ds
}

// checkTriggerAttributes checks, as OpenTofu 1.12 does, that the
// attribute steps after the resource in each replace_triggered_by entry
// name what the referenced resource's schema has ("Unsupported
// attribute"), for every resource of the tree whose schema is known.
func checkTriggerAttributes(cfg *config.Module, schemas map[addrs.ConfigResource]provider.Schema) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		for _, r := range allResources(m) {
			if r.Managed == nil {
				continue
			}
			for _, expr := range r.Managed.ReplaceTriggeredBy {
				target, rest, ok := triggerTraversal(expr)
				if !ok || len(rest) == 0 {
					continue
				}
				sch, known := schemas[addrs.ConfigResource{Module: m.Path, Resource: target}]
				if !known || sch.Block == nil {
					continue
				}
				if d := checkAttributeSteps(sch.Block, rest); d != nil {
					ds = ds.Append(*d)
				}
			}
		}
	}
	return ds
}

// triggerTraversal returns the resource a replace_triggered_by entry names
// and the steps after it (and after its instance key, if any), without
// evaluating anything; ok is false for an entry of another shape.
func triggerTraversal(expr hcl.Expression) (addrs.Resource, hcl.Traversal, bool) {
	var trav, rest hcl.Traversal
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		trav = e.Traversal
	case *hclsyntax.RelativeTraversalExpr:
		idx, ok := e.Source.(*hclsyntax.IndexExpr)
		if !ok {
			return addrs.Resource{}, nil, false
		}
		coll, ok := idx.Collection.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return addrs.Resource{}, nil, false
		}
		trav, rest = coll.Traversal, e.Traversal
	default:
		return addrs.Resource{}, nil, false
	}
	ref, ds := lang.ParseRef(trav)
	if ds.HasErrors() || ref == nil || ref.Kind != lang.ResourceRef {
		return addrs.Resource{}, nil, false
	}
	return ref.Resource, append(ref.Remaining, rest...), true
}

// checkAttributeSteps checks that the first steps of trav name an
// attribute or nested block of b (descending through nested blocks); an
// attribute ends the check. It returns OpenTofu's "Unsupported attribute"
// at the step that names nothing, or nil.
func checkAttributeSteps(b *provider.Block, trav hcl.Traversal) *diag.Diagnostic {
	for len(trav) > 0 {
		step, ok := trav[0].(hcl.TraverseAttr)
		if !ok {
			return nil
		}
		if _, isAttr := b.Attributes[step.Name]; isAttr {
			return nil
		}
		nb, isBlock := b.BlockTypes[step.Name]
		if !isBlock {
			names := slices.Collect(maps.Keys(b.Attributes))
			names = append(names, slices.Collect(maps.Keys(b.BlockTypes))...)
			slices.Sort(names)
			detail := fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.", step.Name)
			if s := lang.NameSuggestion(step.Name, names); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			d := diag.At(step.SrcRange, "Unsupported attribute", detail)
			return &d
		}
		trav = trav[1:]
		switch nb.Nesting {
		case provider.NestingList, provider.NestingSet, provider.NestingMap:
			if len(trav) == 0 {
				return nil
			}
			if _, isIndex := trav[0].(hcl.TraverseIndex); !isIndex {
				return nil
			}
			trav = trav[1:]
		}
		b = &nb.Block
	}
	return nil
}
