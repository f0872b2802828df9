package ui

import (
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// pathSet is a set of attribute paths, keyed by pathKey. The nil set is empty
// and read-only.
type pathSet map[string]bool

func (s pathSet) add(p cty.Path)      { s[pathKey(p)] = true }
func (s pathSet) has(p cty.Path) bool { return len(s) > 0 && s[pathKey(p)] }

// pathKey renders p unambiguously: attribute names quoted, index keys in
// their canonical value form.
func pathKey(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteByte('.')
			b.WriteString(strconv.Quote(s.Name))
		case cty.IndexStep:
			b.WriteByte('[')
			b.WriteString(valueKey(s.Key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// extend returns a copy of p with step appended (never sharing p's array).
func extend(p cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, step)
}

func attrStep(p cty.Path, name string) cty.Path  { return extend(p, cty.GetAttrStep{Name: name}) }
func indexStep(p cty.Path, k cty.Value) cty.Path { return extend(p, cty.IndexStep{Key: k}) }

// unmarkInto returns v without marks, adding the paths of sensitive-marked
// parts to set. Renderers always work on unmarked values.
func unmarkInto(v cty.Value, set pathSet) cty.Value {
	if v == cty.NilVal || !provider.HasMarks(v) {
		return v
	}
	uv, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		for m := range pvm.Marks {
			if marks.IsSensitive(m) {
				set.add(pvm.Path)
			}
		}
	}
	return uv
}

// addSchemaSensitive adds the paths of the attributes that block declares
// sensitive, within the non-null parts of v.
func addSchemaSensitive(block *provider.Block, v cty.Value, path cty.Path, set pathSet) {
	if block == nil || v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return
	}
	for name, a := range block.Attributes {
		if !v.Type().HasAttribute(name) || (!a.Sensitive && a.NestedType == nil) {
			continue
		}
		p := attrStep(path, name)
		if a.Sensitive {
			set.add(p)
		}
		if a.NestedType != nil {
			addNestedSensitive(a.NestedType, v.GetAttr(name), p, set)
		}
	}
	for name, nb := range block.BlockTypes {
		if !v.Type().HasAttribute(name) {
			continue
		}
		child := v.GetAttr(name)
		p := attrStep(path, name)
		switch nb.Nesting {
		case provider.NestingSingle, provider.NestingGroup:
			addSchemaSensitive(&nb.Block, child, p, set)
		default:
			eachElement(child, func(k, ev cty.Value) { addSchemaSensitive(&nb.Block, ev, indexStep(p, k), set) })
		}
	}
}

func addNestedSensitive(nt *provider.NestedObject, v cty.Value, path cty.Path, set pathSet) {
	obj := func(ov cty.Value, p cty.Path) {
		if ov.IsNull() || !ov.IsKnown() || !ov.Type().IsObjectType() {
			return
		}
		for name, a := range nt.Attributes {
			if !ov.Type().HasAttribute(name) || (!a.Sensitive && a.NestedType == nil) {
				continue
			}
			ap := attrStep(p, name)
			if a.Sensitive {
				set.add(ap)
			}
			if a.NestedType != nil {
				addNestedSensitive(a.NestedType, ov.GetAttr(name), ap, set)
			}
		}
	}
	switch nt.Nesting {
	case provider.NestingSingle, provider.NestingGroup:
		obj(v, path)
	default:
		eachElement(v, func(k, ev cty.Value) { obj(ev, indexStep(path, k)) })
	}
}

// eachElement calls fn for each element of a known, non-null collection.
func eachElement(v cty.Value, fn func(k, ev cty.Value)) {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.CanIterateElements() {
		return
	}
	for it := v.ElementIterator(); it.Next(); {
		fn(it.Element())
	}
}
