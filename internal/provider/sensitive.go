package provider

import (
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
)

// ContainsSensitive reports whether b declares any attribute sensitive, at
// any depth. It is computed once per Block.
func (b *Block) ContainsSensitive() bool {
	if b == nil {
		return false
	}
	m := memoOf(b)
	m.sensOnce.Do(func() { m.sens = b.containsSensitive() })
	return m.sens
}

// MarkSensitive returns v, an object of b's type, with the values of the
// attributes b declares sensitive marked marks.Sensitive, as every value
// read from a provider is marked before expressions see it. A null or
// unknown v, or one of a schema without sensitive attributes, is returned
// as it is.
func (b *Block) MarkSensitive(v cty.Value) cty.Value {
	if v == cty.NilVal || !b.ContainsSensitive() || v.IsNull() || !v.IsKnown() {
		return v
	}
	return marks.MarkPaths(v, b.SensitivePaths(v))
}

// SensitivePaths returns the paths of v's attributes that b declares
// sensitive: every sensitive attribute (even when null), and those of
// nested attribute types and nested blocks for each element present, as
// OpenTofu derives the sensitive_attributes it records in state. Paths come
// in a stable order (attributes by name, elements in iteration order).
func (b *Block) SensitivePaths(v cty.Value) []cty.Path {
	return b.sensitivePaths(v, nil, nil)
}

func (b *Block) sensitivePaths(v cty.Value, path cty.Path, out []cty.Path) []cty.Path {
	names := sortedAttributeNames(b.Attributes)
	for _, name := range names {
		if b.Attributes[name].Sensitive {
			out = append(out, extendPath(path, cty.GetAttrStep{Name: name}))
		}
	}
	if v.IsNull() || !v.IsKnown() {
		return out
	}
	for _, name := range names {
		a := b.Attributes[name]
		if a.NestedType == nil || !a.NestedType.containsSensitive() {
			continue
		}
		out = a.NestedType.sensitivePaths(v.GetAttr(name), extendPath(path, cty.GetAttrStep{Name: name}), out)
	}
	blockNames := make([]string, 0, len(b.BlockTypes))
	for name := range b.BlockTypes {
		blockNames = append(blockNames, name)
	}
	sort.Strings(blockNames)
	for _, name := range blockNames {
		nb := b.BlockTypes[name]
		if !nb.Block.containsSensitive() {
			continue
		}
		bv := v.GetAttr(name)
		if bv.IsNull() || !bv.IsKnown() {
			continue
		}
		bp := extendPath(path, cty.GetAttrStep{Name: name})
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			out = nb.Block.sensitivePaths(bv, bp, out)
		case NestingList, NestingMap, NestingSet:
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				out = nb.Block.sensitivePaths(ev, extendPath(bp, cty.IndexStep{Key: k}), out)
			}
		}
	}
	return out
}

func (o *NestedObject) sensitivePaths(v cty.Value, path cty.Path, out []cty.Path) []cty.Path {
	if v.IsNull() || !v.IsKnown() {
		return out
	}
	obj := &Block{Attributes: o.Attributes}
	switch o.Nesting {
	case NestingSingle, NestingGroup:
		return obj.sensitivePaths(v, path, out)
	case NestingList, NestingMap, NestingSet:
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			out = obj.sensitivePaths(ev, extendPath(path, cty.IndexStep{Key: k}), out)
		}
	}
	return out
}

func (b *Block) containsSensitive() bool {
	for _, a := range b.Attributes {
		if a.Sensitive || (a.NestedType != nil && a.NestedType.containsSensitive()) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.containsSensitive() {
			return true
		}
	}
	return false
}

func (o *NestedObject) containsSensitive() bool {
	return (&Block{Attributes: o.Attributes}).containsSensitive()
}

func sortedAttributeNames(m map[string]*Attribute) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func extendPath(p cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, step)
}
