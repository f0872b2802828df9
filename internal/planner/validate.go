package planner

import (
	"context"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// unknownData answers every reference with an unknown value, so that a
// configuration can be checked without variables or state.
type unknownData struct{}

func (unknownData) InputVariable(string, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}
func (unknownData) LocalValue(string, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}
func (unknownData) Resource(addrs.Resource, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}
func (unknownData) ModuleCall(string, []string, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}

// Validate checks a configuration without state or variable values:
// references, cycles, resource types, and every resource body against its
// schema (with all referenced values unknown).
func Validate(ctx context.Context, cfg *config.Module, providers *provider.Set, opts ValidateOptions) diag.Diagnostics {
	p := &planner{ctx: ctx, cfg: cfg, providers: providers, schemas: map[addrs.ConfigResource]provider.Schema{}}
	// Every independent problem is reported: reference errors do not stop
	// the checks of resource types, cycles and bodies.
	var ds diag.Diagnostics
	ds = ds.Append(unsupportedConstructs(cfg))
	ds = ds.Append(lang.CheckReferences(cfg))
	ds = ds.Append(p.loadGraph())
	ev, more := eval.New(ctx, eval.Options{Config: cfg, Cwd: opts.Cwd, Providers: providers})
	ds = ds.Append(more)
	ds = ds.Append(validateBodies(cfg, p.schemas, ev))
	for _, m := range cfg.AllModules() {
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			ds = ds.Append(eval.CheckProviderForEach(m, m.ProviderConfigs[key]))
		}
	}
	return uniqueDiagnostics(ds)
}

// uniqueDiagnostics drops repeats of a diagnostic (two checks finding the
// same problem at the same place), keeping the first.
func uniqueDiagnostics(ds diag.Diagnostics) diag.Diagnostics {
	type key struct {
		severity        diag.Severity
		summary, detail string
		subject         hcl.Range
	}
	seen := map[key]bool{}
	out := ds[:0:0]
	for _, d := range ds {
		k := key{d.Severity, d.Summary, d.Detail, hcl.Range{}}
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
	// Cwd is path.cwd, the absolute working directory; "" leaves it empty.
	Cwd string
}

// validateBodies decodes every resource body against its schema with all
// referenced values unknown, catching unsupported arguments, type errors and
// unknown functions before anything is planned. Provider functions are
// called only with known arguments.
func validateBodies(cfg *config.Module, schemas map[addrs.ConfigResource]provider.Schema, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		ds = ds.Append(validateModuleBodies(m, schemas, ev.FunctionsOf(m), ev.Cwd))
	}
	return ds
}

func validateModuleBodies(m *config.Module, schemas map[addrs.ConfigResource]provider.Schema, fns *lang.ProviderFunctions, cwd string) diag.Diagnostics {
	var ds diag.Diagnostics
	dir := m.SourceDir
	if dir == "" {
		dir = "."
	}
	scope := &lang.Scope{Data: unknownData{}, ModuleDir: dir, RootDir: ".", Cwd: cwd, ProviderFunctions: fns}
	for _, r := range allResources(m) {
		sch, ok := schemas[configAddr(m, r)]
		if !ok {
			continue
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
		val, more := s.EvalBlock(r.Config, sch.Block.DecoderSpec())
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		ds = ds.Append(validateComputed(r, sch.Block, val))
	}
	return ds
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
		for cr, deps := range p.rg.resourceDeps {
			for _, dep := range deps {
				g.Connect(dep, cr)
			}
		}
	}
	return g, ds
}
