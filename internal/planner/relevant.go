package planner

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// globalRef is a reference made in module instance module (count.index
// and each references also name the resource instance they are in).
type globalRef struct {
	module   addrs.ModuleInstance
	resource addrs.AbsResourceInstance // for count and each references
	ref      *lang.Reference
}

// key identifies what the reference refers to, ignoring where it is written.
func (g globalRef) key() string {
	var b strings.Builder
	b.Grow(64)
	b.WriteString(string(g.module))
	b.WriteByte('|')
	switch g.ref.Kind {
	case lang.CountIndex, lang.EachKey, lang.EachValue:
		b.WriteString(g.resource.String())
	}
	b.WriteByte('|')
	b.WriteString(g.ref.String())
	for _, step := range g.ref.Remaining {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			b.WriteByte('[')
			b.WriteString(s.Key.GoString())
			b.WriteByte(']')
		}
	}
	return b.String()
}

// relevantAttributes finds, as OpenTofu does for a plan's
// relevant_attributes, the resource attributes that the planned changes
// (of resources and root outputs that are not no-ops) refer to directly or
// through locals, variables, module outputs and the arguments of the
// resources they refer to.
func (p *planner) relevantAttributes(changes []*plan.ResourceInstanceChange, outputs map[string]*plan.OutputChange) []plan.ResourceAttr {
	var start []globalRef
	// The instances of one resource in one module instance make the same
	// references (count and each aside, which lead to the same count or
	// for_each expression): one of them stands for all.
	seen := map[addrs.AbsResource]bool{}
	for _, c := range changes {
		r := c.Addr.ContainingResource()
		if c.Action == plan.NoOp || seen[r] {
			continue
		}
		seen[r] = true
		start = append(start, p.resourceMetaRefs(c.Addr, nil)...)
	}
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		if outputs[name].Action == plan.NoOp {
			continue
		}
		if o := p.cfg.Outputs[name]; o != nil && o.Expr != nil {
			start = append(start, exprGlobalRefs(addrs.RootModule, addrs.AbsResourceInstance{}, o.Expr)...)
		}
	}
	// The outputs of child modules are not recorded in state: each one
	// that has a value is a new output, a change, as OpenTofu plans them.
	for _, m := range p.cfg.AllModules() {
		if m.Path.IsRoot() {
			continue
		}
		for _, mi := range p.eval.ModuleInstances(m.Path) {
			for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
				o := m.Outputs[name]
				if o.Expr == nil {
					continue
				}
				if v, ds := p.eval.OutputValue(mi, name); ds.HasErrors() || v.IsNull() {
					continue
				}
				start = append(start, exprGlobalRefs(mi, addrs.AbsResourceInstance{}, o.Expr)...)
			}
		}
	}

	found := map[string]globalRef{}
	visited := map[string]bool{}
	queue := start
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		k := g.key()
		if g.ref.Kind == lang.ResourceRef {
			found[k] = g
		}
		if visited[k] {
			continue
		}
		visited[k] = true
		queue = append(queue, p.metaRefs(g)...)
	}

	// Sorted as the addresses and paths print, each printed once.
	type sortable struct {
		attr           plan.ResourceAttr
		resource, path string
	}
	sorted := make([]sortable, 0, len(found))
	for _, g := range found {
		addr := addrs.AbsResourceInstance{Module: g.module, Resource: g.ref.Resource.Instance(addrs.NoKey)}
		if g.ref.KeyGiven {
			addr.Resource.Key = g.ref.Key
		}
		path := lang.TraversalPath(g.ref.Remaining)
		sorted = append(sorted, sortable{plan.ResourceAttr{Resource: addr, Path: path}, addr.String(), pathString(path)})
	}
	slices.SortFunc(sorted, func(a, b sortable) int {
		if c := cmp.Compare(a.resource, b.resource); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	out := make([]plan.ResourceAttr, len(sorted))
	for i, s := range sorted {
		out[i] = s.attr
	}
	return out
}

// metaRefs returns the references that the object g refers to makes
// itself: a local's expression, a child module variable's argument, a
// module output's expression, the arguments of a resource (only the one
// referred to when it is an attribute), a resource's count or for_each.
func (p *planner) metaRefs(g globalRef) []globalRef {
	m := p.cfg.Descendant(g.module.Module())
	if m == nil {
		return nil
	}
	r := g.ref
	switch r.Kind {
	case lang.LocalValue:
		if l := m.Locals[r.Name]; l != nil {
			return exprGlobalRefs(g.module, addrs.AbsResourceInstance{}, l.Expr)
		}
	case lang.InputVariable:
		if g.module.IsRoot() {
			return nil
		}
		parent, call := g.module.Parent()
		pm := p.cfg.Descendant(parent.Module())
		if pm == nil || pm.ModuleCalls[call.Name] == nil {
			return nil
		}
		content, _, _ := pm.ModuleCalls[call.Name].Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: r.Name}}})
		if a := content.Attributes[r.Name]; a != nil {
			return exprGlobalRefs(parent, addrs.AbsResourceInstance{}, a.Expr)
		}
	case lang.ModuleCallOutput:
		key := addrs.NoKey
		if r.KeyGiven {
			key = r.Key
		}
		child := g.module.Child(r.Name, key)
		cm := p.cfg.Descendant(child.Module())
		if cm == nil {
			return nil
		}
		names := []string{r.Output}
		if r.Output == "" {
			names = slices.Sorted(maps.Keys(cm.Outputs))
		}
		var out []globalRef
		for _, name := range names {
			if o := cm.Outputs[name]; o != nil && o.Expr != nil {
				out = append(out, exprGlobalRefs(child, addrs.AbsResourceInstance{}, o.Expr)...)
			}
		}
		return out
	case lang.CountIndex, lang.EachKey, lang.EachValue:
		res := m.ResourceByAddr(g.resource.Resource.Resource)
		if res == nil {
			return nil
		}
		repetition := res.Count
		if res.ForEach != nil {
			repetition = res.ForEach
		}
		return exprGlobalRefs(g.module, addrs.AbsResourceInstance{}, repetition)
	case lang.ResourceRef:
		key := addrs.NoKey
		if r.KeyGiven {
			key = r.Key
		}
		return p.resourceMetaRefs(addrs.AbsResourceInstance{Module: g.module, Resource: r.Resource.Instance(key)}, r.Remaining)
	}
	return nil
}

// resourceMetaRefs returns the references made by the arguments of
// resource instance addr that the traversal remain (after the resource)
// selects: one attribute's expression, the arguments of a nested block, or
// every argument when remain selects the whole object.
func (p *planner) resourceMetaRefs(addr addrs.AbsResourceInstance, remain hcl.Traversal) []globalRef {
	m := p.cfg.Descendant(addr.Module.Module())
	if m == nil {
		return nil
	}
	res := m.ResourceByAddr(addr.Resource.Resource)
	if res == nil {
		return nil
	}
	p.mu.Lock()
	sch, ok := p.schemas[configAddr(m, res)]
	p.mu.Unlock()
	if !ok || sch.Block == nil {
		return nil
	}
	bodies := []hcl.Body{res.Config}
	block := sch.Block
	var exprs []hcl.Expression
	for _, step := range remain {
		var name string
		switch s := step.(type) {
		case hcl.TraverseAttr:
			name = s.Name
		case hcl.TraverseIndex:
			if !s.Key.Type().Equals(cty.String) || s.Key.IsNull() || !s.Key.IsKnown() {
				bodies, block = nil, nil
			} else {
				name = s.Key.AsString()
			}
		}
		if block == nil || name == "" {
			break
		}
		if _, ok := block.Attributes[name]; ok {
			for _, b := range bodies {
				content, _, _ := b.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
				if a := content.Attributes[name]; a != nil {
					exprs = append(exprs, a.Expr)
				}
			}
			bodies, block = nil, nil
			break
		}
		nb, ok := block.BlockTypes[name]
		if !ok {
			bodies, block = nil, nil
			break
		}
		var inner []hcl.Body
		for _, b := range bodies {
			content, _, _ := b.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: name, LabelNames: blockLabels(nb)}}})
			for _, blk := range content.Blocks {
				inner = append(inner, blk.Body)
			}
		}
		bodies, block = inner, &nb.Block
		if nb.Nesting != provider.NestingSingle && nb.Nesting != provider.NestingGroup {
			// Every block of a repeated type stands for the one indexed.
			break
		}
	}
	var out []globalRef
	for _, e := range exprs {
		out = append(out, exprGlobalRefs(addr.Module, addr, e)...)
	}
	if block != nil {
		for _, b := range bodies {
			refs, _ := lang.CachedReferencesInBody(b, block.DecoderSpec())
			out = append(out, globalRefs(addr.Module, addr, refs)...)
		}
	}
	return out
}

// blockLabels returns the labels blocks of nested type nb have: a map's key.
func blockLabels(nb *provider.NestedBlock) []string {
	if nb.Nesting == provider.NestingMap {
		return []string{"key"}
	}
	return nil
}

func exprGlobalRefs(mi addrs.ModuleInstance, in addrs.AbsResourceInstance, e hcl.Expression) []globalRef {
	if e == nil {
		return nil
	}
	refs, _ := lang.ReferencesInExpr(e)
	return globalRefs(mi, in, refs)
}

func globalRefs(mi addrs.ModuleInstance, in addrs.AbsResourceInstance, refs []*lang.Reference) []globalRef {
	out := make([]globalRef, 0, len(refs))
	for _, r := range refs {
		out = append(out, globalRef{module: mi, resource: in, ref: r})
	}
	return out
}

// pathString renders a path for sorting.
func pathString(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			b.WriteString("[" + s.Key.GoString() + "]")
		}
	}
	return b.String()
}
