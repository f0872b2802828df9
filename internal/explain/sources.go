package explain

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/planner"
)

// sources finds where things are written in the configuration a plan was
// made from. With no configuration it finds nothing.
type sources struct {
	cfg *config.Module
}

func newSources(cfg *config.Module) *sources { return &sources{cfg: cfg} }

// resource returns the block of r, or nil.
func (s *sources) resource(r addrs.AbsResource) *config.Resource {
	if s.cfg == nil {
		return nil
	}
	return s.cfg.ConfigResource(r.InConfig())
}

// cbdSetting returns where r's create_before_destroy is written, or nil.
func (s *sources) cbdSetting(r addrs.AbsResource) *hcl.Range {
	rc := s.resource(r)
	if rc == nil || rc.Managed == nil || !rc.Managed.CreateBeforeDestroySet {
		return nil
	}
	rng := rc.Managed.CreateBeforeDestroyRange
	return &rng
}

// forEdge returns where the dependency behind an edge of the given rule is
// written: in the dependent's block, its references to the dependency.
// recorded is set when the dependent has no block, so the dependency is
// the one its state records.
func (s *sources) forEdge(rule apply.Rule, from, to apply.Op) (found []Source, recorded bool) {
	var dependent, dependency apply.Op
	switch rule {
	case apply.RuleDependency, apply.RuleAfterDependencyDelete, apply.RuleCBDDeleteAfterDependencyCreate:
		dependent, dependency = to, from
	case apply.RuleBeforeCBDDelete, apply.RuleReverseDestroy, apply.RuleDeleteBeforeDependencyCreate:
		dependent, dependency = from, to
	default:
		return nil, false
	}
	if s.cfg != nil && s.resource(dependent.Addr.ContainingResource()) == nil {
		return nil, true
	}
	return s.references(dependent.Addr.ContainingResource(), dependency.Addr.ContainingResource()), false
}

// references returns where dependent's block refers to dependency (itself,
// or through local values), names it in depends_on, or sits in a module
// whose call names it in depends_on.
func (s *sources) references(dependent, dependency addrs.AbsResource) []Source {
	r := s.resource(dependent)
	if r == nil {
		return nil
	}
	mod := dependent.Module.Module()
	var out []Source
	seen := map[hcl.Range]bool{}
	add := func(what string, rng hcl.Range) {
		if seen[rng] {
			return
		}
		seen[rng] = true
		out = append(out, Source{What: what, Text: s.text(rng), Range: rng})
	}
	names := func(trav hcl.Traversal, in addrs.Module) (hcl.Range, bool) {
		ref, ds := lang.ParseRef(trav)
		if ds.HasErrors() || ref == nil || ref.Kind != lang.ResourceRef {
			return hcl.Range{}, false
		}
		if ref.Resource != dependency.Resource || in != dependency.Module.Module() {
			return hcl.Range{}, false
		}
		return trav.SourceRange(), true
	}
	// throughLocal reports whether local value name of module m refers to
	// the dependency, directly or through other local values.
	seenLocal := map[string]bool{}
	var throughLocal func(m *config.Module, name string) bool
	throughLocal = func(m *config.Module, name string) bool {
		l := m.Locals[name]
		if l == nil || seenLocal[name] {
			return false
		}
		seenLocal[name] = true
		for _, trav := range l.Expr.Variables() {
			if _, ok := names(trav, m.Path); ok {
				return true
			}
			if ref, ds := lang.ParseRef(trav); !ds.HasErrors() && ref != nil && ref.Kind == lang.LocalValue && throughLocal(m, ref.Name) {
				return true
			}
		}
		return false
	}
	m := s.cfg.Descendant(mod)
	for _, trav := range bodyTraversals(r) {
		if rng, ok := names(trav, mod); ok {
			add("reference", rng)
			continue
		}
		if ref, ds := lang.ParseRef(trav); m != nil && !ds.HasErrors() && ref != nil && ref.Kind == lang.LocalValue && throughLocal(m, ref.Name) {
			add("reference through local."+ref.Name, trav.SourceRange())
		}
	}
	for _, trav := range r.DependsOn {
		if rng, ok := names(trav, mod); ok {
			add("depends_on", rng)
		}
	}
	// What the provider configuration refers to comes before every
	// resource it configures.
	if m != nil {
		if pm, pb := planner.ProviderBlockOf(m, r); pb != nil {
			refs, _ := lang.ReferencesInAnyBody(pb.Config)
			for _, ref := range refs {
				switch {
				case ref.Kind == lang.ResourceRef && ref.Resource == dependency.Resource && pm.Path == dependency.Module.Module():
					add("provider configuration", ref.Range)
				case ref.Kind == lang.LocalValue && throughLocal(pm, ref.Name):
					add("provider configuration through local."+ref.Name, ref.Range)
				}
			}
		}
	}
	// A module call's depends_on holds for everything in the module.
	for m := s.cfg.Descendant(mod); m != nil && m.Parent != nil; m = m.Parent {
		_, name := m.Path.Parent()
		call := m.Parent.ModuleCalls[name]
		if call == nil {
			continue
		}
		for _, trav := range call.DependsOn {
			if rng, ok := names(trav, m.Parent.Path); ok {
				add("module depends_on", rng)
			}
		}
	}
	return out
}

// bodyTraversals returns every traversal a resource block's expressions
// make: its arguments and nested blocks, count/for_each/enabled,
// conditions, replace_triggered_by and prevent_destroy. A JSON body's nested blocks are not searched.
func bodyTraversals(r *config.Resource) []hcl.Traversal {
	var out []hcl.Traversal
	exprs := []hcl.Expression{r.Count, r.ForEach, r.Enabled}
	if r.Managed != nil {
		exprs = append(exprs, r.Managed.ReplaceTriggeredBy...)
		exprs = append(exprs, r.Managed.PreventDestroy)
	}
	for _, c := range append(append([]*config.CheckRule(nil), r.Preconditions...), r.Postconditions...) {
		exprs = append(exprs, c.Condition, c.ErrorMessage)
	}
	for _, e := range exprs {
		if e != nil {
			out = append(out, e.Variables()...)
		}
	}
	var walk func(b *hclsyntax.Body)
	walk = func(b *hclsyntax.Body) {
		for _, a := range b.Attributes {
			out = append(out, a.Expr.Variables()...)
		}
		for _, blk := range b.Blocks {
			walk(blk.Body)
		}
	}
	if b, ok := r.Config.(*hclsyntax.Body); ok {
		walk(b)
	} else if attrs, ds := r.Config.JustAttributes(); !ds.HasErrors() {
		for _, a := range attrs {
			out = append(out, a.Expr.Variables()...)
		}
	}
	return out
}

// text returns the source text of rng, or "" when the file is unknown.
func (s *sources) text(rng hcl.Range) string {
	src, ok := s.cfg.Sources[rng.Filename]
	if !ok || rng.End.Byte > len(src) || rng.Start.Byte > rng.End.Byte {
		return ""
	}
	return string(rng.SliceBytes(src))
}
