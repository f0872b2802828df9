package provider

import "github.com/zclconf/go-cty/cty"

// NormalizeRead returns v, an object a provider returned from a read, with
// every nested block in the form the schema promises: a null or absent list
// or set of blocks becomes an empty collection, a null group block its empty
// value, and an unknown block a block of unknown attributes. Older SDKs
// answer reads with null blocks; the engine and the views rely on the
// promised form. Dynamically typed blocks and maps pass through.
func (b *Block) NormalizeRead(v cty.Value) cty.Value {
	if b == nil || v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	var vals map[string]cty.Value
	for name, nb := range b.BlockTypes {
		if !v.Type().HasAttribute(name) || nb.Block.ImpliedType().HasDynamicTypes() {
			continue
		}
		old := v.GetAttr(name)
		nv := nb.normalizeRead(old)
		if nv.RawEquals(old) {
			continue
		}
		if vals == nil {
			vals = v.AsValueMap()
		}
		vals[name] = nv
	}
	if vals == nil {
		return v
	}
	return cty.ObjectVal(vals)
}

func (nb *NestedBlock) normalizeRead(v cty.Value) cty.Value {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		switch {
		case !v.IsKnown():
			return nb.Block.unknownStub()
		case v.IsNull() && nb.Nesting == NestingGroup:
			return nb.Block.EmptyValue()
		}
		return nb.Block.NormalizeRead(v)
	case NestingList, NestingSet:
		switch {
		case !v.IsKnown():
			if nb.Nesting == NestingList {
				return cty.ListVal([]cty.Value{nb.Block.unknownStub()})
			}
			return cty.SetVal([]cty.Value{nb.Block.unknownStub()})
		case v.IsNull() || v.LengthInt() == 0:
			if nb.Nesting == NestingList {
				return cty.ListValEmpty(ety)
			}
			return cty.SetValEmpty(ety)
		}
		elems := make([]cty.Value, 0, v.LengthInt())
		changed := false
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			ne := nb.Block.NormalizeRead(e)
			changed = changed || !ne.RawEquals(e)
			elems = append(elems, ne)
		}
		if !changed {
			return v
		}
		if nb.Nesting == NestingList {
			return cty.ListVal(elems)
		}
		return cty.SetVal(elems)
	}
	return v
}

// unknownStub is an object of b's type whose attributes are unknown and
// whose nested blocks are as NormalizeRead makes unknown blocks.
func (b *Block) unknownStub() cty.Value {
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.UnknownVal(a.ImpliedType())
	}
	ty := b.ImpliedType()
	for name, nb := range b.BlockTypes {
		unknown := cty.UnknownVal(ty.AttributeType(name))
		if nb.Block.ImpliedType().HasDynamicTypes() {
			vals[name] = unknown
			continue
		}
		vals[name] = nb.normalizeRead(unknown)
	}
	return cty.ObjectVal(vals)
}
