package planner

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provisioner"
)

// nodeKind is the kind of a configuration object in the reference graph.
type nodeKind uint8

const (
	resourceNode nodeKind = iota + 1
	localNode
	variableNode
	outputNode
	// moduleCallNode is a module block: its count/for_each/depends_on, which
	// every object of the called module waits for.
	moduleCallNode
	// checkNode is a check block's assertions, evaluated once everything
	// they refer to is planned.
	checkNode
	// providerNode is a provider block: what its configuration refers to
	// comes before every resource that uses it (and is recorded among
	// their dependencies, as OpenTofu records it).
	providerNode
)

// node names one configuration object in one module (a static path: one
// node stands for the object in every instance of its module). A provider
// node's name is its address in the module, provider["HOST/NS/TYPE"].ALIAS.
type node struct {
	kind     nodeKind
	module   addrs.Module
	resource addrs.Resource
	name     string
}

// String returns the node as users write references to it, with its module path.
func (n node) String() string {
	var s string
	switch n.kind {
	case resourceNode:
		s = n.resource.String()
	case localNode:
		s = "local." + n.name
	case variableNode:
		s = "var." + n.name
	case outputNode:
		s = "output." + n.name
	case moduleCallNode:
		s = "module." + n.name
	case checkNode:
		s = "check." + n.name
	case providerNode:
		s = n.name
	default:
		s = "?"
	}
	if n.module.IsRoot() {
		return s
	}
	return n.module.String() + "." + s
}

func (n node) configResource() addrs.ConfigResource {
	return addrs.ConfigResource{Module: n.module, Resource: n.resource}
}

// refGraph is the configuration's reference graph: an edge A→B means B refers to A.
type refGraph struct {
	g *dag.Graph[node]
	// resourceDeps holds, for each resource, the resources it records as
	// its dependencies (see DependencyMode), as state records them: sorted,
	// and shared between resources with the same list and by the changes
	// and objects of their instances, so never modified. Read it through
	// dependencies: it is computed while validation goes on.
	resourceDeps map[addrs.ConfigResource][]addrs.AbsResource
	// depsDone is closed once resourceDeps is computed (nil: it was
	// computed, or never will be, when the graph was built).
	depsDone chan struct{}
	// ranges holds every node's declaration, for diagnostics.
	ranges map[node]hcl.Range
}

// schemaFor returns the schema block of resource r.
type schemaLookup func(m *config.Module, r *config.Resource) (*provider.Block, bool)

// buildRefGraph builds the reference graph of the configuration tree below
// root and checks it for cycles.
func buildRefGraph(root *config.Module, schemaOf schemaLookup, mode plan.DependencyMode) (*refGraph, diag.Diagnostics) {
	return buildRefGraphSharing(root, schemaOf, mode, nil)
}

// buildRefGraphSharing is buildRefGraph whose recorded dependency lists
// share the slices of prior (recordedLists) where they are the same.
func buildRefGraphSharing(root *config.Module, schemaOf schemaLookup, mode plan.DependencyMode, prior map[addrs.ConfigResource][]addrs.AbsResource) (*refGraph, diag.Diagnostics) {
	var ds diag.Diagnostics
	mods := root.AllModules()
	n := 0
	for _, m := range mods {
		n += len(m.Variables) + len(m.Locals) + len(m.Outputs) + len(m.ModuleCalls) + len(m.ManagedResources) + len(m.DataResources) + len(m.EphemeralResources) + len(m.Checks)
	}
	rg := &refGraph{g: dag.NewSized[node](n), resourceDeps: make(map[addrs.ConfigResource][]addrs.AbsResource), ranges: make(map[node]hcl.Range, n)}
	direct := make(map[node][]node, n)
	connect := func(from, to node) {
		rg.g.Connect(to, from)
		direct[from] = append(direct[from], to)
	}

	// addRefs adds the edges of from's references, written in module m.
	addRefs := func(from node, m *config.Module, refs []*lang.Reference) {
		for _, ref := range refs {
			for _, to := range refTargets(m, ref) {
				switch {
				case to == from && from.kind == localNode:
					ds = ds.Append(selfReferencingLocal(m, from.name, ref))
					continue
				case !rg.g.Has(to) || to == from:
					// Undeclared references are reported by lang.CheckReferences;
					// self-references by resources too.
					continue
				}
				connect(from, to)
			}
		}
	}

	type moduleResources struct {
		m         *config.Module
		resources []*config.Resource
	}
	perModule := make([]moduleResources, len(mods))
	for i, m := range mods {
		perModule[i] = moduleResources{m, allResources(m)}
		for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
			n := node{kind: variableNode, module: m.Path, name: name}
			rg.g.Add(n)
			rg.ranges[n] = m.Variables[name].DeclRange
		}
		for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
			n := node{kind: localNode, module: m.Path, name: name}
			rg.g.Add(n)
			rg.ranges[n] = m.Locals[name].DeclRange
		}
		for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
			n := node{kind: moduleCallNode, module: m.Path, name: name}
			rg.g.Add(n)
			rg.ranges[n] = m.ModuleCalls[name].DeclRange
		}
		for _, r := range perModule[i].resources {
			n := node{kind: resourceNode, module: m.Path, resource: r.Addr}
			rg.g.Add(n)
			rg.ranges[n] = r.DeclRange
		}
		for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
			n := node{kind: outputNode, module: m.Path, name: name}
			rg.g.Add(n)
			rg.ranges[n] = m.Outputs[name].DeclRange
		}
		for _, c := range m.Checks {
			n := node{kind: checkNode, module: m.Path, name: c.Name}
			rg.g.Add(n)
			rg.ranges[n] = c.DeclRange
		}
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			pb := m.ProviderConfigs[key]
			n := providerNodeOf(m, pb)
			rg.g.Add(n)
			rg.ranges[n] = pb.DeclRange
		}
	}

	for _, mr := range perModule {
		m := mr.m
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			pb := m.ProviderConfigs[key]
			addRefs(providerNodeOf(m, pb), m, providerReferences(&ds, pb))
		}
		for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
			refs, more := lang.ReferencesInExpr(m.Locals[name].Expr)
			ds = ds.Append(more)
			addRefs(node{kind: localNode, module: m.Path, name: name}, m, refs)
		}
		for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
			mc := m.ModuleCalls[name]
			callNode := node{kind: moduleCallNode, module: m.Path, name: name}
			refs := exprRefs(&ds, mc.Count, mc.ForEach, mc.Enabled)
			refs = append(refs, traversalRefs(&ds, mc.DependsOn)...)
			for _, pp := range mc.Providers {
				// The key selecting a provider instance for the call's instances.
				refs = append(refs, exprRefs(&ds, pp.InParent.KeyExpr)...)
			}
			addRefs(callNode, m, refs)
			child := m.Children[name]
			if child == nil {
				continue
			}
			// The called module's variables are the call's arguments,
			// evaluated here; everything in it waits for the call.
			args, _ := mc.Config.JustAttributes()
			for _, vname := range slices.Sorted(maps.Keys(child.Variables)) {
				vn := node{kind: variableNode, module: child.Path, name: vname}
				if a, ok := args[vname]; ok {
					addRefs(vn, m, exprRefs(&ds, a.Expr))
				}
			}
			for _, cn := range childNodes(child) {
				connect(cn, callNode)
			}
		}
		// Finding a resource's references walks its body: independent work,
		// done on every core; the graph is then built in resource order.
		type found struct {
			refs []*lang.Reference
			ds   diag.Diagnostics
		}
		refsOf := make([]found, len(mr.resources))
		parallel.For(len(mr.resources), func(i int) {
			refsOf[i].refs, refsOf[i].ds = resourceReferences(m, mr.resources[i], schemaOf)
		})
		for i, r := range mr.resources {
			ds = ds.Append(refsOf[i].ds)
			rn := node{kind: resourceNode, module: m.Path, resource: r.Addr}
			addRefs(rn, m, refsOf[i].refs)
			if pn, ok := resourceProviderNode(m, r); ok {
				connect(rn, pn)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
			o := m.Outputs[name]
			var refs []*lang.Reference
			if o.Expr != nil {
				refs = append(refs, exprRefs(&ds, o.Expr)...)
			}
			refs = append(refs, traversalRefs(&ds, o.DependsOn)...)
			for _, c := range o.Preconditions {
				refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
			}
			addRefs(node{kind: outputNode, module: m.Path, name: name}, m, refs)
		}
		for _, c := range m.Checks {
			var refs []*lang.Reference
			for _, a := range c.Asserts {
				refs = append(refs, exprRefs(&ds, a.Condition, a.ErrorMessage)...)
			}
			addRefs(node{kind: checkNode, module: m.Path, name: c.Name}, m, refs)
		}
	}
	if ds.HasErrors() {
		return rg, ds
	}
	if cycles := rg.g.Cycles(); len(cycles) > 0 {
		for _, c := range cycles {
			ds = ds.Append(cycleDiag(root, schemaOf, c, rg.ranges))
		}
		return rg, ds
	}

	order, err := rg.g.TopoOrder()
	if err != nil {
		return rg, ds.Append(diag.FromError(err))
	}
	// Nothing else reads order and direct: the lists are computed while
	// the caller goes on (validation checks the bodies meanwhile).
	rg.depsDone = make(chan struct{})
	go func() {
		defer close(rg.depsDone)
		rg.resourceDeps = recordedDependencies(order, direct, mode, prior)
	}()
	return rg, ds
}

// dependencies returns resourceDeps, once computed.
func (rg *refGraph) dependencies() map[addrs.ConfigResource][]addrs.AbsResource {
	if rg.depsDone != nil {
		<-rg.depsDone
	}
	return rg.resourceDeps
}

// recordedDependencies computes, in one pass in topological order, the
// resources each resource depends on, in the form and order state records
// them (recordedAddr, sorted as their addresses print). Resources are
// numbered in that order first, so that sets are merged as sorted lists of
// numbers rather than compared as addresses. Each node's set is computed
// once, from its predecessors' sets; a node that adds nothing to a single
// predecessor's set shares that set, and each distinct set becomes one
// slice of addresses, shared by every resource with that set (and, through
// the changes and objects that record it, by their instances).
// A computed list that prior holds for its resource is prior's slice.
func recordedDependencies(order []node, direct map[node][]node, mode plan.DependencyMode, prior map[addrs.ConfigResource][]addrs.AbsResource) map[addrs.ConfigResource][]addrs.AbsResource {
	var resources []addrs.ConfigResource
	for _, n := range order {
		if n.kind == resourceNode {
			resources = append(resources, n.configResource())
		}
	}
	slices.SortFunc(resources, addrs.ConfigResource.Compare)
	rank := make(map[addrs.ConfigResource]int32, len(resources))
	for i, r := range resources {
		rank[r] = int32(i)
	}
	// listKey names a list by its backing array: shared lists are the same slice.
	type listKey struct {
		first *int32
		n     int
	}
	asAddrs := map[listKey][]addrs.AbsResource{}
	out := make(map[addrs.ConfigResource][]addrs.AbsResource, len(resources))
	// closure holds, for every node, what a node referring to it inherits.
	closure := make(map[node][]int32, len(order))
	var own []int32
	var inherited [][]int32
	for _, n := range order {
		own, inherited = own[:0], inherited[:0]
		for _, d := range direct[n] {
			if d.kind == resourceNode {
				own = append(own, rank[d.configResource()])
				// A data source is never destroyed and records no
				// dependencies, so what it depends on is recorded on its
				// dependents, to order their destroys (and to pass on
				// create_before_destroy, as OpenTofu does through any node).
				if mode == plan.ReducedDependencies && d.resource.Mode == addrs.Managed {
					continue
				}
			}
			if c := closure[d]; len(c) > 0 {
				inherited = append(inherited, c)
			}
		}
		deps := unionSorted(own, inherited)
		if n.kind != resourceNode {
			closure[n] = deps
			continue
		}
		if mode == plan.TransitiveDependencies || n.resource.Mode != addrs.Managed {
			closure[n] = deps
		}
		if len(deps) == 0 {
			continue
		}
		k := listKey{&deps[0], len(deps)}
		list, ok := asAddrs[k]
		if !ok {
			if was := prior[n.configResource()]; sameRecordedList(was, deps, resources) {
				list = was
			} else {
				list = make([]addrs.AbsResource, len(deps))
				for i, r := range deps {
					list[i] = recordedAddr(resources[r])
				}
			}
			asAddrs[k] = list
		}
		out[n.configResource()] = list
	}
	return out
}

// unionSorted returns the sorted union of own, which it may reorder, and
// the sorted lists in inherited. When the union is one of the inherited
// lists (nothing of its own, the other lists within it), it returns that
// list, shared; otherwise a new slice. The lists are merged pairwise, never
// sorted again: a resource deep in a graph of distinct resource blocks
// inherits thousands of entries from each of its dependencies.
func unionSorted(own []int32, inherited [][]int32) []int32 {
	if len(own) == 0 && len(inherited) == 1 {
		return inherited[0]
	}
	lists := make([][]int32, 0, len(inherited)+1)
	if len(own) > 0 {
		slices.Sort(own)
		lists = append(lists, slices.Clone(slices.Compact(own)))
	}
	for _, l := range inherited {
		if len(l) > 0 {
			lists = append(lists, l)
		}
	}
	if len(lists) == 0 {
		return nil
	}
	for len(lists) > 1 {
		next := lists[:0:0]
		for i := 0; i+1 < len(lists); i += 2 {
			next = append(next, mergeSorted(lists[i], lists[i+1]))
		}
		if len(lists)%2 == 1 {
			next = append(next, lists[len(lists)-1])
		}
		lists = next
	}
	union := lists[0]
	if len(own) == 0 {
		// The union contains every list; one as long is the union itself.
		for _, l := range inherited {
			if len(l) == len(union) {
				return l
			}
		}
	}
	return union
}

// mergeSorted returns the sorted union of two sorted lists without
// duplicates, in a new slice.
func mergeSorted(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch x, y := a[0], b[0]; {
		case x < y:
			out, a = append(out, x), a[1:]
		case x > y:
			out, b = append(out, y), b[1:]
		default:
			out, a, b = append(out, x), a[1:], b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// childNodes returns the nodes of module m itself (not of the modules it
// calls, which wait for m's call nodes).
func childNodes(m *config.Module) []node {
	var out []node
	for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
		out = append(out, node{kind: variableNode, module: m.Path, name: name})
	}
	for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
		out = append(out, node{kind: localNode, module: m.Path, name: name})
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		out = append(out, node{kind: moduleCallNode, module: m.Path, name: name})
	}
	for _, r := range allResources(m) {
		out = append(out, node{kind: resourceNode, module: m.Path, resource: r.Addr})
	}
	for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
		out = append(out, node{kind: outputNode, module: m.Path, name: name})
	}
	for _, c := range m.Checks {
		out = append(out, node{kind: checkNode, module: m.Path, name: c.Name})
	}
	return out
}

// selfReferencingLocal reports local value name of module m referring to
// itself (ref), as OpenTofu reports it.
func selfReferencingLocal(m *config.Module, name string, ref *lang.Reference) diag.Diagnostic {
	d := diag.At(ref.Range, "Self-referencing local value",
		fmt.Sprintf("Local value local.%s cannot use its own result as part of its expression.", name))
	if l := m.Locals[name]; l != nil {
		rng := l.Expr.Range()
		d.Context = &rng
	}
	return d
}

// providerNodeOf returns the node of provider block pb of module m.
func providerNodeOf(m *config.Module, pb *config.Provider) node {
	pc := addrs.AbsProviderConfig{Provider: m.ProviderFor(pb.Name), Alias: pb.Alias}
	return node{kind: providerNode, module: m.Path, name: pc.String()}
}

// resourceProviderNode returns the node of the provider block that
// configures resource r of module m; ok is false when the configuration
// it uses has no block (an empty default configuration).
func resourceProviderNode(m *config.Module, r *config.Resource) (node, bool) {
	pm, pb := ProviderBlockOf(m, r)
	if pb == nil {
		return node{}, false
	}
	return providerNodeOf(pm, pb), true
}

// ProviderBlockOf returns the provider block that configures resource r
// of module m (see ResolveProviderConfig) and the module that declares
// it; nil when the configuration r uses has no block (an empty default
// configuration).
func ProviderBlockOf(m *config.Module, r *config.Resource) (*config.Module, *config.Provider) {
	name, alias := m.ProviderLocalName(r)
	pc := ResolveProviderConfig(m, name, alias)
	pm := m
	for pm.Path != pc.Module.Module() && pm.Parent != nil {
		pm = pm.Parent
	}
	if len(pm.ProviderConfigs) <= 1 {
		// Nothing to sort.
		for _, pb := range pm.ProviderConfigs {
			if pm.ProviderFor(pb.Name) == pc.Provider && pb.Alias == pc.Alias {
				return pm, pb
			}
		}
		return nil, nil
	}
	for _, key := range slices.Sorted(maps.Keys(pm.ProviderConfigs)) {
		if pb := pm.ProviderConfigs[key]; pm.ProviderFor(pb.Name) == pc.Provider && pb.Alias == pc.Alias {
			return pm, pb
		}
	}
	return nil, nil
}

// providerReferences returns the references of provider block pb: its
// for_each and its configuration, read without the provider's schema.
func providerReferences(ds *diag.Diagnostics, pb *config.Provider) []*lang.Reference {
	refs := exprRefs(ds, pb.ForEach)
	more, d := lang.ReferencesInAnyBody(pb.Config)
	*ds = ds.Append(d)
	return append(refs, more...)
}

func traversalRefs(ds *diag.Diagnostics, travs []hcl.Traversal) []*lang.Reference {
	var refs []*lang.Reference
	for _, t := range travs {
		r, more := lang.ParseRef(t)
		*ds = ds.Append(more)
		if r != nil {
			refs = append(refs, r)
		}
	}
	return refs
}

// resourceReferences returns every reference a resource block makes: its
// arguments, count/for_each/enabled, depends_on, replace_triggered_by,
// prevent_destroy, conditions and provisioners.
func resourceReferences(m *config.Module, r *config.Resource, schemaOf schemaLookup) ([]*lang.Reference, diag.Diagnostics) {
	var ds diag.Diagnostics
	var refs []*lang.Reference
	if b, ok := schemaOf(m, r); ok {
		more, d := lang.CachedReferencesInBody(r.Config, b.DecoderSpec())
		ds = ds.Append(d)
		refs = append(refs, more...)
	}
	refs = append(refs, exprRefs(&ds, r.Count, r.ForEach, r.Enabled)...)
	if r.ProviderConfigRef != nil {
		// The key selecting each instance's provider configuration instance.
		refs = append(refs, exprRefs(&ds, r.ProviderConfigRef.KeyExpr)...)
	}
	refs = append(refs, traversalRefs(&ds, r.DependsOn)...)
	if r.Managed != nil {
		refs = append(refs, exprRefs(&ds, r.Managed.ReplaceTriggeredBy...)...)
		refs = append(refs, exprRefs(&ds, r.Managed.PreventDestroy)...)
		refs = append(refs, actionTriggerReferences(&ds, m, r)...)
	}
	for _, c := range r.Preconditions {
		refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
	}
	for _, c := range r.Postconditions {
		refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
	}
	// Provisioners are part of their resource's operation: what they refer
	// to comes first, and is recorded among its dependencies.
	for _, p := range r.Provisioners {
		if spec := provisioner.Spec(p.Type); spec != nil {
			more, d := lang.ReferencesInBody(p.Config, spec)
			ds = ds.Append(d)
			refs = append(refs, more...)
		}
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

// refTargets returns the nodes a reference written in module m names: a
// resource, local value, variable, or module output (every output, for a
// reference to a whole module). A module call with no module loaded names
// nothing.
func refTargets(m *config.Module, ref *lang.Reference) []node {
	switch ref.Kind {
	case lang.ResourceRef:
		return []node{{kind: resourceNode, module: m.Path, resource: ref.Resource}}
	case lang.LocalValue:
		return []node{{kind: localNode, module: m.Path, name: ref.Name}}
	case lang.InputVariable:
		return []node{{kind: variableNode, module: m.Path, name: ref.Name}}
	case lang.ModuleCallOutput:
		child := m.Children[ref.Name]
		if child == nil {
			return nil
		}
		if ref.Output != "" {
			return []node{{kind: outputNode, module: child.Path, name: ref.Output}}
		}
		// The whole module: every output of it.
		var out []node
		for _, name := range slices.Sorted(maps.Keys(child.Outputs)) {
			out = append(out, node{kind: outputNode, module: child.Path, name: name})
		}
		return out
	}
	return nil
}

func allResources(m *config.Module) []*config.Resource {
	return sortedResourcesOf(m)
}

// sortResources returns every resource block of m, sorted by address.
func sortResources(m *config.Module) []*config.Resource {
	out := make([]*config.Resource, 0, len(m.ManagedResources)+len(m.DataResources)+len(m.EphemeralResources))
	for _, r := range m.ManagedResources {
		out = append(out, r)
	}
	for _, r := range m.DataResources {
		out = append(out, r)
	}
	for _, r := range m.EphemeralResources {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *config.Resource) int { return a.Addr.Compare(b.Addr) })
	return out
}

// cbdSource says where a resource's effective create_before_destroy comes
// from: from is the resource that sets it (the resource itself for its own
// setting); via is the resource that depends on this one and passed it on,
// the next step of the dependency path towards from.
type cbdSource struct {
	from, via addrs.ConfigResource
}

// inheritCBD computes each resource's effective create_before_destroy: its
// own setting, or inherited from any resource that depends on it, directly
// or transitively (through local values, variables, module calls and data
// sources too). One sweep over the reference graph in reverse topological
// order, O(nodes + edges): each node that a create_before_destroy resource
// depends on takes the source of the first such node that refers to it,
// and the nearest resource on that way as its via. The map holds every
// managed resource with effective create_before_destroy.
func inheritCBD(root *config.Module, rg *refGraph) map[addrs.ConfigResource]cbdSource {
	out := map[addrs.ConfigResource]cbdSource{}
	order, err := rg.g.TopoOrder()
	if err != nil {
		return out
	}
	// carrier holds, for each node reached, the source it inherits and the
	// nearest resource that passed it on.
	carrier := map[node]cbdSource{}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		src, reached := carrier[n]
		if n.kind == resourceNode && n.resource.Mode == addrs.Managed {
			cr := n.configResource()
			if r := root.ConfigResource(cr); r != nil && r.Managed != nil && r.Managed.CreateBeforeDestroy {
				src, reached = cbdSource{from: cr, via: cr}, true
			}
			if reached {
				out[cr] = src
				// What this resource depends on inherits through it.
				src.via = cr
			}
		}
		if !reached {
			continue
		}
		for _, dep := range rg.g.Predecessors(n) {
			if _, done := carrier[dep]; !done {
				carrier[dep] = src
			}
		}
	}
	return out
}
