package provider

import "github.com/zclconf/go-cty/cty"

// WriteOnlyPath reports whether path p (from the block's root) leads into
// a write-only attribute.
func (b *Block) WriteOnlyPath(p cty.Path) bool {
	if b == nil || len(p) == 0 {
		return false
	}
	name, ok := p[0].(cty.GetAttrStep)
	if !ok {
		return false
	}
	if a := b.Attributes[name.Name]; a != nil {
		if a.WriteOnly {
			return true
		}
		if a.NestedType != nil {
			return a.NestedType.writeOnlyPath(skipIndex(p[1:]))
		}
		return false
	}
	if nb := b.BlockTypes[name.Name]; nb != nil {
		return nb.Block.WriteOnlyPath(skipIndex(p[1:]))
	}
	return false
}

func (o *NestedObject) writeOnlyPath(p cty.Path) bool {
	if len(p) == 0 {
		return false
	}
	name, ok := p[0].(cty.GetAttrStep)
	if !ok {
		return false
	}
	a := o.Attributes[name.Name]
	switch {
	case a == nil:
		return false
	case a.WriteOnly:
		return true
	case a.NestedType != nil:
		return a.NestedType.writeOnlyPath(skipIndex(p[1:]))
	}
	return false
}

// skipIndex drops a leading element step (of a nested list, set or map).
func skipIndex(p cty.Path) cty.Path {
	if len(p) > 0 {
		if _, ok := p[0].(cty.IndexStep); ok {
			return p[1:]
		}
	}
	return p
}

// HasWriteOnly reports whether the block declares any write-only
// attribute, at any depth.
func (b *Block) HasWriteOnly() bool {
	if b == nil {
		return false
	}
	for _, a := range b.Attributes {
		if a.WriteOnly || (a.NestedType != nil && a.NestedType.hasWriteOnly()) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.HasWriteOnly() {
			return true
		}
	}
	return false
}

func (o *NestedObject) hasWriteOnly() bool {
	for _, a := range o.Attributes {
		if a.WriteOnly || (a.NestedType != nil && a.NestedType.hasWriteOnly()) {
			return true
		}
	}
	return false
}

// NullWriteOnly returns v (an object of the block's type) with every
// write-only attribute null: what plans and state hold of them.
func (b *Block) NullWriteOnly(v cty.Value) cty.Value {
	if !b.HasWriteOnly() || v.IsNull() || !v.IsKnown() || !b.writeOnlySet(v) {
		return v
	}
	return b.nullWriteOnlyAll(v)
}

// nullWriteOnlyAll is NullWriteOnly by a walk of the whole value.
func (b *Block) nullWriteOnlyAll(v cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if len(p) > 0 && b.WriteOnlyPath(p) {
			if _, last := p[len(p)-1].(cty.GetAttrStep); last && !b.WriteOnlyPath(p[:len(p)-1]) {
				return cty.NullVal(v.Type()), nil
			}
		}
		return v, nil
	})
	return out
}
