package ui

import (
	"maps"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// This file builds the diff tree that diffrender.go prints: for a before
// and an after value (and their schema, when there is one) a tree of nodes,
// each with the action it represents (NoOp, Create, Update or Delete),
// whether it forces replacement, and how it renders. Building first and
// rendering second lets a parent know whether its children changed before it
// decides what to hide.

// node is one value in a diff tree.
type node struct {
	action  plan.Action
	replace bool
	r       renderer
}

// render writes the node's rendering into b.
func (n *node) render(b *strings.Builder, indent int, o ropts) { n.r.render(b, n, indent, o) }

// text is the node's rendering as a string, for the top of a value.
func (n *node) text(indent int, o ropts) string {
	var b strings.Builder
	n.render(&b, indent, o)
	return b.String()
}

// side is one half of a change.
type side struct {
	// v is the value; cty.NilVal when absent (a missing key or index, or
	// the child of a null or absent parent).
	v cty.Value
	// explicit is set when the value was present in its parent, even as
	// null: a key of a dynamic object, an index within a list's length.
	// Attributes of typed objects and blocks are never explicit.
	explicit bool
	path     cty.Path
}

func absent(p cty.Path) side { return side{path: p} }

// differ holds what the tree builder needs besides the values: the
// sensitive paths of each side and the paths that force replacement.
type differ struct {
	before, after pathSet
	replace       pathSet
	// ignoreSens is set while computing the action hidden behind a
	// sensitive value.
	ignoreSens bool
}

// tracksPaths reports whether any path set is non-empty. Sides carry their
// paths only to look them up in these sets, so without any the paths stay
// nil, which saves most of a large plan's rendering allocations.
func (d *differ) tracksPaths() bool {
	return len(d.before) > 0 || len(d.after) > 0 || len(d.replace) > 0
}

func (d *differ) attrStep(p cty.Path, name string) cty.Path {
	if !d.tracksPaths() {
		return nil
	}
	return attrStep(p, name)
}

func (d *differ) indexStep(p cty.Path, k cty.Value) cty.Path {
	if !d.tracksPaths() {
		return nil
	}
	return indexStep(p, k)
}

func (d *differ) stepFor(v cty.Value, p cty.Path, k string) cty.Path {
	if !d.tracksPaths() {
		return nil
	}
	return stepFor(v, p, k)
}

func (d *differ) replaces(b, a side) bool {
	if b.v == cty.NilVal {
		return d.replace.has(a.path)
	}
	return d.replace.has(b.path)
}

// compareActions folds a child's action into its parent's: any difference
// makes an update.
func compareActions(cur, next plan.Action) plan.Action {
	if next == plan.NoOp || cur == next {
		return cur
	}
	return plan.Update
}

// iterAction is the starting action of a collection or object before its
// children are folded in.
func iterAction(b, a side) plan.Action {
	switch {
	case isNil(b.v) && isNil(a.v):
		return plan.NoOp
	case isNil(b.v):
		return plan.Create
	case isNil(a.v):
		return plan.Delete
	}
	return plan.NoOp
}

// primAction is the action of a primitive change; strict also requires equal
// explicitness for a no-op, as typed attributes do.
func primAction(b, a side, strict bool) plan.Action {
	bMissing := isNil(b.v) && !b.explicit
	aMissing := isNil(a.v) && !a.explicit
	switch {
	case bMissing && !aMissing:
		return plan.Create
	case aMissing && !bMissing:
		return plan.Delete
	case sameKey(b.v, a.v) && (!strict || b.explicit == a.explicit):
		return plan.NoOp
	}
	return plan.Update
}

// sensitive wraps a change whose before or after value is sensitive; inner
// computes the hidden diff, of which only the action is used.
func (d *differ) sensitive(b, a side, inner func() *node, withReplace bool) (*node, bool) {
	if d.ignoreSens {
		return nil, false
	}
	bs := b.v != cty.NilVal && d.before.has(b.path)
	as := a.v != cty.NilVal && d.after.has(a.path)
	if !bs && !as {
		return nil, false
	}
	d.ignoreSens = true
	in := inner()
	d.ignoreSens = false
	act := in.action
	nullNoOp := isNil(b.v) && !b.explicit && isNil(a.v) && !a.explicit
	if act == plan.NoOp && bs != as && !nullNoOp {
		act = plan.Update
	}
	n := &node{action: act, r: sensR{inner: in, before: bs, after: as}}
	if withReplace {
		n.replace = d.replaces(b, a)
	}
	return n, true
}

// unknown handles an after value that is wholly unknown; beforeDiff renders
// the before value as if deleted.
func (d *differ) unknown(b, a side, beforeDiff func() *node, withReplace bool) (*node, bool) {
	if a.v == cty.NilVal || a.v.IsKnown() {
		return nil, false
	}
	n := &node{action: plan.Create, r: unknownR{}}
	if !isNil(b.v) {
		n = &node{action: plan.Update, r: unknownR{before: beforeDiff()}}
	}
	if withReplace {
		n.replace = d.replaces(b, a)
	}
	return n, true
}

// attr diffs a value of schema type ty.
func (d *differ) attr(b, a side, ty cty.Type) *node {
	if n, ok := d.sensitive(b, a, func() *node { return d.attr(b, a, ty) }, true); ok {
		return n
	}
	if n, ok := d.unknown(b, a, func() *node { return d.attr(b, absent(a.path), ty) }, true); ok {
		return n
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return d.json(b, a)
	case ty.IsPrimitiveType():
		return newPrimNode(primAction(b, a, true), d.replaces(b, a), primR{before: b.v, after: a.v, ty: ty})
	case ty.IsObjectType():
		cur := iterAction(b, a)
		attrs := map[string]*node{}
		for name, aty := range ty.AttributeTypes() {
			cb := side{v: mapGet(b.v, name), path: d.attrStep(b.path, name)}
			ca := side{v: mapGet(a.v, name), path: d.attrStep(a.path, name)}
			cn := d.attr(cb, ca, aty)
			if cn.action == plan.NoOp && isNil(cb.v) && isNil(ca.v) {
				continue
			}
			attrs[name] = cn
			cur = compareActions(cur, cn.action)
		}
		return &node{action: cur, replace: d.replaces(b, a), r: objectR{attrs: attrs, overrideNullSuffix: true}}
	case ty.IsMapType():
		et := ty.ElementType()
		elems, cur := d.mapping(b, a, func(cb, ca side) *node { return d.attr(cb, ca, et) })
		return &node{action: cur, replace: d.replaces(b, a), r: mapR{elems: elems, align: true}}
	case ty.IsListType():
		et := ty.ElementType()
		shouldDiff := func(x, y cty.Value) bool { return et.IsObjectType() || multilineShareLine(x, y) }
		elems, cur := d.sequence(b, a, shouldDiff, func(cb, ca side) *node { return d.attr(cb, ca, et) })
		return &node{action: cur, replace: d.replaces(b, a), r: listR{elems: elems, context: true}}
	case ty.IsTupleType():
		cur := iterAction(b, a)
		bk, bv := elements(b.v)
		ak, av := elements(a.v)
		var elems []*node
		for i, et := range ty.TupleElementTypes() {
			cb, ca := d.indexed(b, bk, bv, i), d.indexed(a, ak, av, i)
			cn := d.attr(cb, ca, et)
			elems = append(elems, cn)
			cur = compareActions(cur, cn.action)
		}
		return &node{action: cur, replace: d.replaces(b, a), r: listR{elems: elems, context: true}}
	case ty.IsSetType():
		et := ty.ElementType()
		elems, cur := d.set(b, a, func(cb, ca side) *node { return d.attr(cb, ca, et) })
		return &node{action: cur, replace: d.replaces(b, a), r: setR{elems: elems}}
	}
	return newPrimNode(primAction(b, a, true), d.replaces(b, a), primR{before: b.v, after: a.v, ty: cty.String})
}

// indexed returns element i of a sequence side; absent (not explicit) when
// out of range.
func (d *differ) indexed(s side, keys, vals []cty.Value, i int) side {
	if i < 0 || i >= len(vals) {
		if !d.tracksPaths() {
			return side{}
		}
		return side{path: indexStep(s.path, cty.NumberIntVal(int64(i)))}
	}
	return side{v: vals[i], explicit: true, path: d.indexStep(s.path, keys[i])}
}

// mapping diffs the elements of two mappings (maps or objects) key by key,
// over the union of their keys; children are explicit when present.
func (d *differ) mapping(b, a side, child func(cb, ca side) *node) (map[string]*node, plan.Action) {
	cur := plan.NoOp
	switch {
	case !isNil(b.v) && isNil(a.v):
		cur = plan.Delete
	case isNil(b.v) && !isNil(a.v):
		cur = plan.Create
	}
	elems := map[string]*node{}
	for _, k := range unionKeys(b.v, a.v) {
		bv, av := mapGet(b.v, k), mapGet(a.v, k)
		cb := side{v: bv, explicit: bv != cty.NilVal, path: d.stepFor(b.v, b.path, k)}
		ca := side{v: av, explicit: av != cty.NilVal, path: d.stepFor(a.v, a.path, k)}
		cn := child(cb, ca)
		elems[k] = cn
		cur = compareActions(cur, cn.action)
	}
	return elems, cur
}

func unionKeys(b, a cty.Value) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range append(mapKeys(b), mapKeys(a)...) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// sequence diffs two lists by their longest common subsequence, pairing
// differing elements where shouldDiff says they are worth comparing.
func (d *differ) sequence(b, a side, shouldDiff func(x, y cty.Value) bool, child func(cb, ca side) *node) ([]*node, plan.Action) {
	bk, bv := elements(b.v)
	ak, av := elements(a.v)
	cur := plan.NoOp
	switch {
	case bv != nil && av == nil:
		cur = plan.Delete
	case bv == nil && av != nil:
		cur = plan.Create
	}
	// Keys are compared only when both sides have elements; computing
	// them costs the size of each element, which for a nested list adds
	// up level by level.
	bkeys, akeys := make([]string, len(bv)), make([]string, len(av))
	if len(bv) > 0 && len(av) > 0 {
		bkeys, akeys = keysOf(bv), keysOf(av)
	}
	var elems []*node
	processSlice(bkeys, akeys, func(i, j int) bool { return shouldDiff(bv[i], av[j]) }, func(i, j int) {
		cn := child(d.indexed(b, bk, bv, i), d.indexed(a, ak, av, j))
		elems = append(elems, cn)
		cur = compareActions(cur, cn.action)
	})
	return elems, cur
}

func keysOf(vals []cty.Value) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = valueKey(v)
	}
	return out
}

// multilineShareLine reports whether two strings, at least one multi-line,
// have a line in common: list elements worth diffing line by line.
func multilineShareLine(x, y cty.Value) bool {
	if isNil(x) || isNil(y) || !x.IsKnown() || !y.IsKnown() || x.Type() != cty.String || y.Type() != cty.String {
		return false
	}
	xs, ys := x.AsString(), y.AsString()
	if !strings.Contains(xs, "\n") && !strings.Contains(ys, "\n") {
		return false
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(xs, "\n") {
		lines[l] = true
	}
	for _, l := range strings.Split(ys, "\n") {
		if lines[l] {
			return true
		}
	}
	return false
}

// set diffs two sets: equal elements are paired, the rest are deleted or created.
func (d *differ) set(b, a side, child func(cb, ca side) *node) ([]*node, plan.Action) {
	bk, bv := elements(b.v)
	ak, av := elements(a.v)
	cur := iterAction(b, a)
	matchedB := make([]int, len(bv))
	matchedA := map[int]bool{}
	for i := range bv {
		matchedB[i] = -1
		for j := range av {
			if matchedA[j] || !av[j].IsWhollyKnown() || valueKey(bv[i]) != valueKey(av[j]) {
				continue
			}
			bs, as := d.before.has(d.indexStep(b.path, bk[i])), d.after.has(d.indexStep(a.path, ak[j]))
			if bs != as {
				continue
			}
			matchedB[i], matchedA[j] = j, true
			break
		}
	}
	var elems []*node
	add := func(i, j int) {
		cn := child(d.indexed(b, bk, bv, i), d.indexed(a, ak, av, j))
		elems = append(elems, cn)
		cur = compareActions(cur, cn.action)
	}
	for i := range bv {
		if j := matchedB[i]; j >= 0 {
			add(i, j)
		} else {
			add(i, len(av))
		}
	}
	for j := range av {
		if !matchedA[j] {
			add(len(bv), j)
		}
	}
	return elems, cur
}

// jsonKind is the JSON type of a value, which is what a dynamic value's
// diff follows: objects and maps alike, lists, tuples and sets alike.
type jsonKind uint8

const (
	jNull jsonKind = iota
	jBool
	jNumber
	jString
	jObject
	jArray
)

func kindOf(v cty.Value) jsonKind {
	if isNil(v) {
		return jNull
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return jBool
	case ty == cty.Number:
		return jNumber
	case ty == cty.String:
		return jString
	case ty.IsObjectType() || ty.IsMapType():
		return jObject
	}
	return jArray
}

// json diffs two values of a dynamic type by their JSON shape, as OpenTofu
// renders dynamic attributes and outputs.
func (d *differ) json(b, a side) *node {
	if n, ok := d.sensitive(b, a, func() *node { return d.json(b, a) }, false); ok {
		return n
	}
	if n, ok := d.unknown(b, a, func() *node { return d.json(b, absent(a.path)) }, false); ok {
		return n
	}
	bk, ak := kindOf(b.v), kindOf(a.v)
	deleted := ak == jNull && !a.explicit
	created := bk == jNull && !b.explicit
	if bk == ak || created || deleted {
		k := bk
		if k == jNull {
			k = ak
		}
		return d.jsonOf(b, a, k)
	}
	before := d.jsonOf(b, absent(a.path), bk)
	after := d.jsonOf(absent(b.path), a, ak)
	return &node{action: plan.Update, r: typeChangeR{before: before, after: after}}
}

func (d *differ) jsonOf(b, a side, k jsonKind) *node {
	switch k {
	case jObject:
		elems, cur := d.mapping(b, a, d.json)
		return &node{action: cur, r: objectR{attrs: elems, overrideNullSuffix: true}}
	case jArray:
		shouldDiff := func(x, y cty.Value) bool {
			return (kindOf(x) == jObject && kindOf(y) == jObject) || multilineShareLine(x, y)
		}
		elems, cur := d.sequence(b, a, shouldDiff, d.json)
		return &node{action: cur, r: listR{elems: elems, context: true}}
	}
	ty := cty.NilType
	switch k {
	case jBool:
		ty = cty.Bool
	case jNumber:
		ty = cty.Number
	case jString:
		ty = cty.String
	}
	return newPrimNode(primAction(b, a, false), false, primR{before: b.v, after: a.v, ty: ty})
}

// block diffs two objects of a schema block: a resource or a nested block.
func (d *differ) block(b, a side, blk *provider.Block) *node {
	if n, ok := d.unknown(b, a, func() *node { return d.block(b, absent(a.path), blk) }, true); ok {
		return n
	}
	cur := iterAction(b, a)
	attrs := map[string]*node{}
	var writeOnly []string
	for name, at := range blk.Attributes {
		if at.WriteOnly {
			writeOnly = append(writeOnly, name)
			continue
		}
		cb := side{v: emptyAsNull(mapGet(b.v, name)), path: d.attrStep(b.path, name)}
		ca := side{v: emptyAsNull(mapGet(a.v, name)), path: d.attrStep(a.path, name)}
		cn := d.schemaAttr(cb, ca, at)
		if cn.action == plan.NoOp && isNil(cb.v) && isNil(ca.v) {
			continue
		}
		attrs[name] = cn
		cur = compareActions(cur, cn.action)
	}
	groups := map[string]blockGroup{}
	for name, nb := range blk.BlockTypes {
		cb := side{v: mapGet(b.v, name), path: d.attrStep(b.path, name)}
		ca := side{v: mapGet(a.v, name), path: d.attrStep(a.path, name)}
		g := blockGroup{replace: d.replaces(cb, ca)}
		var act plan.Action
		inner := &nb.Block
		one := func(cb, ca side) *node { return d.block(cb, ca, inner) }
		switch {
		case ca.v != cty.NilVal && !ca.v.IsKnown():
			n := d.block(cb, ca, inner)
			g.elems, act = []*node{n}, n.action
		case nb.Nesting == provider.NestingSet:
			g.elems, act = d.set(cb, ca, one)
		case nb.Nesting == provider.NestingList:
			g.elems, act = d.pairwise(cb, ca, one)
		case nb.Nesting == provider.NestingMap:
			var m map[string]*node
			m, act = d.mapping(cb, ca, one)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				g.keys = append(g.keys, k)
				g.elems = append(g.elems, m[k])
			}
		default:
			n := d.block(cb, ca, inner)
			g.elems, act = []*node{n}, n.action
		}
		if act == plan.NoOp && isNil(cb.v) && isNil(ca.v) {
			continue
		}
		groups[name] = g
		cur = compareActions(cur, act)
	}
	// A write-only attribute is never in a plan: it is shown, without a
	// value, with the action of the block it belongs to, as OpenTofu
	// shows it; not at all when the block is unchanged.
	for _, name := range writeOnly {
		replace := d.replaces(side{path: d.attrStep(b.path, name)}, side{path: d.attrStep(a.path, name)})
		act := cur
		if act == plan.NoOp && !replace {
			continue
		}
		if act == plan.NoOp {
			act = plan.Update
		}
		attrs[name] = &node{action: act, replace: replace, r: writeOnlyR{}}
	}
	return &node{action: cur, replace: d.replaces(b, a), r: blockR{attrs: attrs, groups: groups}}
}

// pairwise diffs two lists index by index (nested blocks and nested attributes).
func (d *differ) pairwise(b, a side, child func(cb, ca side) *node) ([]*node, plan.Action) {
	bk, bv := elements(b.v)
	ak, av := elements(a.v)
	cur := iterAction(b, a)
	var elems []*node
	for i := 0; i < len(bv) || i < len(av); i++ {
		cn := child(d.indexed(b, bk, bv, i), d.indexed(a, ak, av, i))
		elems = append(elems, cn)
		cur = compareActions(cur, cn.action)
	}
	return elems, cur
}

// emptyAsNull treats an empty string in a block as null, as OpenTofu does
// for the sake of legacy SDK providers that cannot store null strings.
func emptyAsNull(v cty.Value) cty.Value {
	if v != cty.NilVal && v.IsKnown() && !v.IsNull() && v.Type() == cty.String && v.AsString() == "" {
		return cty.NullVal(cty.String)
	}
	return v
}

// schemaAttr diffs an attribute of a block by its schema.
func (d *differ) schemaAttr(b, a side, at *provider.Attribute) *node {
	if at.NestedType != nil {
		return d.nested(b, a, at.NestedType)
	}
	return d.attr(b, a, at.Type)
}

// nested diffs a protocol-6 nested attribute.
func (d *differ) nested(b, a side, nt *provider.NestedObject) *node {
	if n, ok := d.sensitive(b, a, func() *node { return d.nested(b, a, nt) }, true); ok {
		return n
	}
	if n, ok := d.unknown(b, a, func() *node { return d.nested(b, absent(a.path), nt) }, true); ok {
		return n
	}
	single := &provider.NestedObject{Attributes: nt.Attributes, Nesting: provider.NestingSingle}
	one := func(cb, ca side) *node { return d.nested(cb, ca, single) }
	switch nt.Nesting {
	case provider.NestingList:
		elems, cur := d.pairwise(b, a, one)
		return &node{action: cur, replace: d.replaces(b, a), r: listR{elems: elems}}
	case provider.NestingSet:
		elems, cur := d.set(b, a, one)
		return &node{action: cur, replace: d.replaces(b, a), r: setR{elems: elems, overrideForces: true}}
	case provider.NestingMap:
		elems, cur := d.mapping(b, a, one)
		return &node{action: cur, replace: d.replaces(b, a), r: mapR{elems: elems, overrideNullSuffix: true, overrideForces: true}}
	}
	cur := iterAction(b, a)
	attrs := map[string]*node{}
	for name, at := range nt.Attributes {
		cb := side{v: mapGet(b.v, name), path: d.attrStep(b.path, name)}
		ca := side{v: mapGet(a.v, name), path: d.attrStep(a.path, name)}
		cn := d.schemaAttr(cb, ca, at)
		if cn.action == plan.NoOp && isNil(cb.v) && isNil(ca.v) {
			continue
		}
		attrs[name] = cn
		cur = compareActions(cur, cn.action)
	}
	return &node{action: cur, replace: d.replaces(b, a), r: objectR{attrs: attrs}}
}

// fallbackBlock is the schema used when none is known: every attribute of
// either value, each rendered by the shape of its value.
func fallbackBlock(vals ...cty.Value) *provider.Block {
	blk := &provider.Block{Attributes: map[string]*provider.Attribute{}}
	for _, v := range vals {
		if v == cty.NilVal || !v.Type().IsObjectType() {
			continue
		}
		for name := range v.Type().AttributeTypes() {
			blk.Attributes[name] = &provider.Attribute{Type: cty.DynamicPseudoType, Optional: true}
		}
	}
	return blk
}

// processSlice walks two sequences (given as element keys) along their
// longest common subsequence, calling process with each pair of indices to
// render: (i, len(after)) for a deleted element, (len(before), j) for a
// created one, (i, j) for elements shown as one change or unchanged.
func processSlice(bk, ak []string, shouldDiff func(i, j int) bool, process func(i, j int)) {
	common := lcs(bk, ak)
	var i, j, c int
	for i < len(bk) || j < len(ak) || c < len(common) {
		for i < len(bk) && (c >= len(common) || bk[i] != common[c]) {
			pair := j < len(ak) && shouldDiff(i, j)
			afterCommon := c < len(common) && j < len(ak) && ak[j] == common[c]
			if pair && !afterCommon {
				process(i, j)
				i, j = i+1, j+1
				continue
			}
			process(i, len(ak))
			i++
		}
		for j < len(ak) && (c >= len(common) || ak[j] != common[c]) {
			if i < len(bk) && shouldDiff(i, j) {
				process(i, j)
				i, j = i+1, j+1
				continue
			}
			process(len(bk), j)
			j++
		}
		if c < len(common) {
			process(i, j)
			i, j, c = i+1, j+1, c+1
		}
	}
}

// lcs returns a longest common subsequence of xs and ys.
func lcs(xs, ys []string) []string {
	if len(xs) == 0 || len(ys) == 0 {
		return nil
	}
	w := len(xs)
	c := make([]int, len(xs)*len(ys))
	at := func(x, y int) int {
		if x < 0 || y < 0 {
			return 0
		}
		return c[w*y+x]
	}
	for y := range ys {
		for x := range xs {
			if xs[x] == ys[y] {
				c[w*y+x] = at(x-1, y-1) + 1
			} else {
				c[w*y+x] = max(at(x-1, y), at(x, y-1))
			}
		}
	}
	seq := make([]string, c[len(c)-1])
	k := len(seq) - 1
	for x, y := len(xs)-1, len(ys)-1; x >= 0 && y >= 0; {
		if xs[x] == ys[y] {
			seq[k] = xs[x]
			k, x, y = k-1, x-1, y-1
			continue
		}
		if at(x-1, y) > at(x, y-1) {
			x--
		} else {
			y--
		}
	}
	return seq
}
