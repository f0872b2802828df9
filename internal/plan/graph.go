package plan

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/provider"
)

// nodeKind is the kind of a configuration object in the reference graph.
type nodeKind uint8

const (
	resourceNode nodeKind = iota + 1
	localNode
	variableNode
	outputNode
)

// node names one configuration object: a resource, local, variable or output.
type node struct {
	kind     nodeKind
	resource addrs.Resource
	name     string
}

// String returns the node as users write references to it.
func (n node) String() string {
	switch n.kind {
	case resourceNode:
		return n.resource.String()
	case localNode:
		return "local." + n.name
	case variableNode:
		return "var." + n.name
	case outputNode:
		return "output." + n.name
	}
	return "?"
}

// refGraph is the configuration's reference graph: an edge A→B means B refers to A.
type refGraph struct {
	g *dag.Graph[node]
	// resourceDeps holds, for each resource, the resources it depends on
	// directly or through local values and data sources, sorted.
	resourceDeps map[addrs.Resource][]addrs.Resource
	// refs holds every node's references, for diagnostics.
	ranges map[node]hcl.Range
}

// schemaFor returns the schema block of resource r.
type schemaLookup func(r *config.Resource) (*provider.Block, bool)

// buildRefGraph builds the reference graph of m and checks it for cycles.
func buildRefGraph(m *config.Module, schemaOf schemaLookup) (*refGraph, diag.Diagnostics) {
	var ds diag.Diagnostics
	resources := allResources(m)
	n := len(m.Variables) + len(m.Locals) + len(m.Outputs) + len(resources)
	rg := &refGraph{g: dag.NewSized[node](n), resourceDeps: make(map[addrs.Resource][]addrs.Resource, len(resources)), ranges: make(map[node]hcl.Range, n)}
	direct := make(map[node][]node, n)

	addRefs := func(from node, refs []*lang.Reference) {
		for _, ref := range refs {
			var to node
			switch ref.Kind {
			case lang.ResourceRef:
				to = node{kind: resourceNode, resource: ref.Resource}
			case lang.LocalValue:
				to = node{kind: localNode, name: ref.Name}
			case lang.InputVariable:
				to = node{kind: variableNode, name: ref.Name}
			default:
				continue
			}
			if !rg.g.Has(to) || to == from {
				// Undeclared references are reported by lang.CheckReferences;
				// self-references by resources too.
				continue
			}
			rg.g.Connect(to, from)
			direct[from] = append(direct[from], to)
		}
	}

	for _, name := range sortedKeys(m.Variables) {
		n := node{kind: variableNode, name: name}
		rg.g.Add(n)
		rg.ranges[n] = m.Variables[name].DeclRange
	}
	for _, name := range sortedKeys(m.Locals) {
		n := node{kind: localNode, name: name}
		rg.g.Add(n)
		rg.ranges[n] = m.Locals[name].DeclRange
	}
	for _, r := range resources {
		n := node{kind: resourceNode, resource: r.Addr}
		rg.g.Add(n)
		rg.ranges[n] = r.DeclRange
	}
	for _, name := range sortedKeys(m.Outputs) {
		n := node{kind: outputNode, name: name}
		rg.g.Add(n)
		rg.ranges[n] = m.Outputs[name].DeclRange
	}

	for _, name := range sortedKeys(m.Locals) {
		refs, more := lang.ReferencesInExpr(m.Locals[name].Expr)
		ds = ds.Append(more)
		addRefs(node{kind: localNode, name: name}, refs)
	}
	// Finding a resource's references walks its body: independent work,
	// done on every core; the graph is then built in resource order.
	type found struct {
		refs []*lang.Reference
		ds   diag.Diagnostics
	}
	refsOf := make([]found, len(resources))
	parallel.For(len(resources), func(i int) {
		refsOf[i].refs, refsOf[i].ds = resourceReferences(resources[i], schemaOf)
	})
	for i, r := range resources {
		ds = ds.Append(refsOf[i].ds)
		addRefs(node{kind: resourceNode, resource: r.Addr}, refsOf[i].refs)
	}
	for _, name := range sortedKeys(m.Outputs) {
		o := m.Outputs[name]
		var refs []*lang.Reference
		if o.Expr != nil {
			r, more := lang.ReferencesInExpr(o.Expr)
			ds = ds.Append(more)
			refs = append(refs, r...)
		}
		for _, t := range o.DependsOn {
			r, more := lang.ParseRef(t)
			ds = ds.Append(more)
			if r != nil {
				refs = append(refs, r)
			}
		}
		for _, c := range o.Preconditions {
			refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
		}
		addRefs(node{kind: outputNode, name: name}, refs)
	}
	if ds.HasErrors() {
		return rg, ds
	}
	if cycles := rg.g.Cycles(); len(cycles) > 0 {
		for _, c := range cycles {
			ds = ds.Append(cycleDiag(c, rg.ranges))
		}
		return rg, ds
	}

	// Resource dependencies through locals: one pass in topological order.
	order, err := rg.g.TopoOrder()
	if err != nil {
		return rg, ds.Append(err)
	}
	through := map[node][]addrs.Resource{}
	for _, n := range order {
		seen := map[addrs.Resource]bool{}
		var deps []addrs.Resource
		add := func(r addrs.Resource) {
			if !seen[r] {
				seen[r] = true
				deps = append(deps, r)
			}
		}
		for _, d := range direct[n] {
			switch d.kind {
			case resourceNode:
				add(d.resource)
				if d.resource.Mode != addrs.Data {
					break
				}
				// A data source is never destroyed and records no
				// dependencies, so what it depends on is recorded on its
				// dependents, to order their destroys (and to pass on
				// create_before_destroy, as OpenTofu does through any node).
				fallthrough
			case localNode:
				for _, r := range through[d] {
					add(r)
				}
			}
		}
		slices.SortFunc(deps, compareResource)
		switch n.kind {
		case localNode:
			through[n] = deps
		case resourceNode:
			rg.resourceDeps[n.resource] = deps
			if n.resource.Mode == addrs.Data {
				through[n] = deps
			}
		}
	}
	return rg, ds
}

func compareResource(a, b addrs.Resource) int {
	switch {
	case a == b:
		return 0
	case a.Less(b):
		return -1
	}
	return 1
}

// resourceReferences returns every reference a resource block makes: its
// arguments, count/for_each, depends_on, replace_triggered_by and conditions.
func resourceReferences(r *config.Resource, schemaOf schemaLookup) ([]*lang.Reference, diag.Diagnostics) {
	var ds diag.Diagnostics
	var refs []*lang.Reference
	if b, ok := schemaOf(r); ok {
		more, d := lang.CachedReferencesInBody(r.Config, b.DecoderSpec())
		ds = ds.Append(d)
		refs = append(refs, more...)
	}
	refs = append(refs, exprRefs(&ds, r.Count, r.ForEach)...)
	for _, t := range r.DependsOn {
		ref, d := lang.ParseRef(t)
		ds = ds.Append(d)
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	if r.Managed != nil {
		refs = append(refs, exprRefs(&ds, r.Managed.ReplaceTriggeredBy...)...)
	}
	for _, c := range r.Preconditions {
		refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
	}
	for _, c := range r.Postconditions {
		refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
	}
	return refs, ds
}

func exprRefs(ds *diag.Diagnostics, exprs ...hcl.Expression) []*lang.Reference {
	var refs []*lang.Reference
	for _, e := range exprs {
		if e == nil {
			continue
		}
		r, d := lang.ReferencesInExpr(e)
		*ds = ds.Append(d)
		refs = append(refs, r...)
	}
	return refs
}

// cycleDiag reports a cycle among configuration objects as OpenTofu does:
// "Cycle: a, b, c".
func cycleDiag(cycle []node, ranges map[node]hcl.Range) diag.Diagnostic {
	names := make([]string, len(cycle))
	for i, n := range cycle {
		names[i] = n.String()
	}
	path := append(slices.Clone(names), names[0])
	d := diag.Errorf("Cycle: "+strings.Join(names, ", "),
		"The configuration refers to itself in a loop: %s. Break the loop by removing one of these references.", strings.Join(path, " → "))
	if rng, ok := ranges[cycle[0]]; ok {
		d.Subject = &rng
	}
	return d
}

func allResources(m *config.Module) []*config.Resource {
	out := make([]*config.Resource, 0, len(m.ManagedResources)+len(m.DataResources))
	for _, r := range m.ManagedResources {
		out = append(out, r)
	}
	for _, r := range m.DataResources {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *config.Resource) int { return compareResource(a.Addr, b.Addr) })
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// inheritCBD computes each resource's effective create_before_destroy: its
// own setting, or inherited from any resource that depends on it, directly
// or transitively. One sweep in reverse topological order. The map holds,
// for every resource with effective CBD, the resource it came from (itself
// when its own setting).
func inheritCBD(m *config.Module, rg *refGraph) map[addrs.Resource]addrs.Resource {
	out := map[addrs.Resource]addrs.Resource{}
	order, err := rg.g.TopoOrder()
	if err != nil {
		return out
	}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		if n.kind != resourceNode {
			continue
		}
		r := m.ManagedResources[n.resource]
		if r == nil {
			continue
		}
		src, inherited := out[n.resource]
		if r.Managed != nil && r.Managed.CreateBeforeDestroy {
			src, inherited = n.resource, true
			out[n.resource] = src
		}
		if !inherited {
			continue
		}
		for _, dep := range rg.resourceDeps[n.resource] {
			if _, done := out[dep]; !done && dep.Mode == addrs.Managed {
				out[dep] = src
			}
		}
	}
	return out
}
