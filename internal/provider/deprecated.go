package provider

import (
	"sort"

	"github.com/zclconf/go-cty/cty"
)

// DeprecatedPath is where an object has an attribute or nested block that
// its schema declares deprecated, with the provider's message ("" when it
// gives none).
type DeprecatedPath struct {
	Path    cty.Path
	Message string
}

// DeprecatedPaths returns the paths of v's attributes and nested blocks
// that b declares deprecated: every deprecated attribute (even null), and
// within nested attribute types and nested blocks, those of each element
// present; a deprecated nested block is one path, its contents not
// searched. The order is stable (names sorted, elements in iteration
// order); v may be null or unknown (then only top-level attributes).
func (b *Block) DeprecatedPaths(v cty.Value) []DeprecatedPath {
	if !b.ContainsDeprecated() {
		return nil
	}
	return b.deprecatedPaths(v, nil, nil)
}

func (b *Block) deprecatedPaths(v cty.Value, path cty.Path, out []DeprecatedPath) []DeprecatedPath {
	names := sortedAttributeNames(b.Attributes)
	for _, name := range names {
		if a := b.Attributes[name]; a.Deprecated {
			out = append(out, DeprecatedPath{Path: extendPath(path, cty.GetAttrStep{Name: name}), Message: a.DeprecationMessage})
		}
	}
	if v.IsNull() || !v.IsKnown() {
		return out
	}
	for _, name := range names {
		a := b.Attributes[name]
		if a.Deprecated || a.NestedType == nil || !a.NestedType.containsDeprecated() {
			continue
		}
		out = a.NestedType.deprecatedPaths(v.GetAttr(name), extendPath(path, cty.GetAttrStep{Name: name}), out)
	}
	blockNames := make([]string, 0, len(b.BlockTypes))
	for name := range b.BlockTypes {
		blockNames = append(blockNames, name)
	}
	sort.Strings(blockNames)
	for _, name := range blockNames {
		nb := b.BlockTypes[name]
		bp := extendPath(path, cty.GetAttrStep{Name: name})
		if nb.Block.Deprecated {
			out = append(out, DeprecatedPath{Path: bp, Message: nb.Block.DeprecationMessage})
			continue
		}
		if !nb.Block.ContainsDeprecated() {
			continue
		}
		bv := v.GetAttr(name)
		if bv.IsNull() || !bv.IsKnown() {
			continue
		}
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			out = nb.Block.deprecatedPaths(bv, bp, out)
		case NestingList, NestingMap, NestingSet:
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				out = nb.Block.deprecatedPaths(ev, extendPath(bp, cty.IndexStep{Key: k}), out)
			}
		}
	}
	return out
}

func (o *NestedObject) deprecatedPaths(v cty.Value, path cty.Path, out []DeprecatedPath) []DeprecatedPath {
	if v.IsNull() || !v.IsKnown() {
		return out
	}
	obj := &Block{Attributes: o.Attributes}
	switch o.Nesting {
	case NestingSingle, NestingGroup:
		return obj.deprecatedPaths(v, path, out)
	case NestingList, NestingMap, NestingSet:
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			out = obj.deprecatedPaths(ev, extendPath(path, cty.IndexStep{Key: k}), out)
		}
	}
	return out
}

// ContainsDeprecated reports whether b has a deprecated attribute or
// nested block anywhere within it (b itself aside).
func (b *Block) ContainsDeprecated() bool {
	for _, a := range b.Attributes {
		if a.Deprecated || (a.NestedType != nil && a.NestedType.containsDeprecated()) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.Deprecated || nb.Block.ContainsDeprecated() {
			return true
		}
	}
	return false
}

func (o *NestedObject) containsDeprecated() bool {
	return (&Block{Attributes: o.Attributes}).ContainsDeprecated()
}
