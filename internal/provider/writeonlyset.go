package provider

import "github.com/zclconf/go-cty/cty"

// writeOnlySet reports whether v, a value of b's type, sets any write-only
// attribute (to a value or an unknown one): whether NullWriteOnly has
// anything to do. It looks only at the attributes and blocks on the way
// to one, so that a value that sets none (most of them) is not rebuilt.
func (b *Block) writeOnlySet(v cty.Value) bool {
	v, _ = v.Unmark()
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return false
	}
	if attributesSetWriteOnly(b.Attributes, v) {
		return true
	}
	for name, nb := range b.BlockTypes {
		if !nb.Block.HasWriteOnly() {
			continue
		}
		if bv, ok := attrOf(v, name); ok && anyElement(bv, nb.Nesting == NestingSingle || nb.Nesting == NestingGroup, nb.Block.writeOnlySet) {
			return true
		}
	}
	return false
}

// writeOnlySet is Block.writeOnlySet for an object of nested attributes.
func (o *NestedObject) writeOnlySet(v cty.Value) bool {
	v, _ = v.Unmark()
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return false
	}
	return attributesSetWriteOnly(o.Attributes, v)
}

// attributesSetWriteOnly reports whether the object v sets any write-only
// attribute among attrs, directly or in an object of nested attributes.
func attributesSetWriteOnly(attrs map[string]*Attribute, v cty.Value) bool {
	for name, a := range attrs {
		switch {
		case a.WriteOnly:
			if av, ok := attrOf(v, name); ok && !av.IsNull() {
				return true
			}
		case a.NestedType != nil && a.NestedType.hasWriteOnly():
			if av, ok := attrOf(v, name); ok && anyElement(av, a.NestedType.Nesting == NestingSingle || a.NestedType.Nesting == NestingGroup, a.NestedType.writeOnlySet) {
				return true
			}
		}
	}
	return false
}

// attrOf is v's attribute name, when v's type has it.
func attrOf(v cty.Value, name string) (cty.Value, bool) {
	if !v.Type().HasAttribute(name) {
		return cty.NilVal, false
	}
	return v.GetAttr(name), true
}

// anyElement reports whether set is true of v itself (single: a single or
// group nesting) or of any element of v (a list, set or map of them).
func anyElement(v cty.Value, single bool, set func(cty.Value) bool) bool {
	if single {
		return set(v)
	}
	v, _ = v.Unmark()
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	if !v.CanIterateElements() {
		return set(v)
	}
	for it := v.ElementIterator(); it.Next(); {
		_, el := it.Element()
		if set(el) {
			return true
		}
	}
	return false
}
