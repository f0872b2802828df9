package provider

import (
	"sync"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// Block describes an object shape: attributes and nested blocks.
type Block struct {
	Attributes  map[string]*Attribute
	BlockTypes  map[string]*NestedBlock
	Description string
	// DescriptionKind says how Description is written.
	DescriptionKind StringKind
	Deprecated      bool
	// DeprecationMessage says what to use instead, when Deprecated; "" when
	// the provider gives none.
	DeprecationMessage string
}

// Attribute describes one attribute. Exactly one of Type and NestedType is set.
type Attribute struct {
	Type cty.Type
	// NestedType is a protocol-6 nested attribute type.
	NestedType *NestedObject
	Required   bool
	Optional   bool
	Computed   bool
	Sensitive  bool
	// WriteOnly is a managed resource argument the provider receives but
	// never returns: it is null in every plan and state.
	WriteOnly   bool
	Description string
	// DescriptionKind says how Description is written.
	DescriptionKind StringKind
	Deprecated      bool
	// DeprecationMessage says what to use instead, when Deprecated; "" when
	// the provider gives none.
	DeprecationMessage string
}

// StringKind says how a provider's description text is written.
type StringKind uint8

const (
	// StringPlain is plain text, the zero value.
	StringPlain StringKind = iota
	// StringMarkdown is Markdown.
	StringMarkdown
)

// NestingMode says how a nested block or nested attribute repeats.
type NestingMode uint8

const (
	// NestingInvalid is the zero value.
	NestingInvalid NestingMode = iota
	// NestingSingle is at most one block, null when absent.
	NestingSingle
	// NestingGroup is exactly one block, its defaults when absent.
	NestingGroup
	// NestingList is an ordered list of blocks.
	NestingList
	// NestingSet is an unordered set of blocks.
	NestingSet
	// NestingMap is blocks with labels, as a map.
	NestingMap
)

// NestedBlock describes a nested block type.
type NestedBlock struct {
	Block
	Nesting            NestingMode
	MinItems, MaxItems int
}

// NestedObject describes a protocol-6 nested attribute type.
type NestedObject struct {
	Attributes map[string]*Attribute
	Nesting    NestingMode
}

// blockMemo holds what is derived from a Block once: its type and decoder
// spec. Schemas are built once and never changed afterwards, and the engine
// asks for these per resource instance, so they are computed once per Block.
type blockMemo struct {
	tyOnce   sync.Once
	ty       cty.Type
	specOnce sync.Once
	spec     hcldec.Spec
	sensOnce sync.Once
	sens     bool
}

// memos maps each *Block asked about to its blockMemo.
var memos sync.Map

func memoOf(b *Block) *blockMemo {
	if m, ok := memos.Load(b); ok {
		return m.(*blockMemo)
	}
	m, _ := memos.LoadOrStore(b, &blockMemo{})
	return m.(*blockMemo)
}

// ImpliedType returns the cty object type of values conforming to b. The
// result is computed once per Block: a Block must not change once used.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	m := memoOf(b)
	m.tyOnce.Do(func() { m.ty = b.impliedType() })
	return m.ty
}

func (b *Block) impliedType() cty.Type {
	atys := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		atys[name] = a.ImpliedType()
	}
	for name, nb := range b.BlockTypes {
		ety := nb.Block.ImpliedType()
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			atys[name] = ety
		case NestingList:
			if ety.HasDynamicTypes() {
				atys[name] = cty.DynamicPseudoType
			} else {
				atys[name] = cty.List(ety)
			}
		case NestingSet:
			atys[name] = cty.Set(ety)
		case NestingMap:
			if ety.HasDynamicTypes() {
				atys[name] = cty.DynamicPseudoType
			} else {
				atys[name] = cty.Map(ety)
			}
		}
	}
	return cty.Object(atys)
}

// ImpliedType returns the cty type of the attribute's values.
func (a *Attribute) ImpliedType() cty.Type {
	if a.NestedType == nil {
		return a.Type
	}
	return a.NestedType.ImpliedType()
}

// ImpliedType returns the cty type of a nested attribute's values.
func (o *NestedObject) ImpliedType() cty.Type {
	atys := make(map[string]cty.Type, len(o.Attributes))
	for name, a := range o.Attributes {
		atys[name] = a.ImpliedType()
	}
	ety := cty.Object(atys)
	switch o.Nesting {
	case NestingList:
		return cty.List(ety)
	case NestingSet:
		return cty.Set(ety)
	case NestingMap:
		return cty.Map(ety)
	}
	return ety
}

// DecoderSpec returns the hcldec spec that decodes a configuration body
// into a value of b's ImpliedType. Computed-only attributes are decoded too
// (null when absent); the engine rejects configurations that set them. The
// spec is built once per Block and must not be modified.
func (b *Block) DecoderSpec() hcldec.Spec {
	if b == nil {
		return hcldec.ObjectSpec{}
	}
	m := memoOf(b)
	m.specOnce.Do(func() { m.spec = b.decoderSpec() })
	return m.spec
}

func (b *Block) decoderSpec() hcldec.Spec {
	ret := hcldec.ObjectSpec{}
	for name, a := range b.Attributes {
		ret[name] = &hcldec.AttrSpec{Name: name, Type: a.ImpliedType(), Required: a.Required}
	}
	for name, nb := range b.BlockTypes {
		child := nb.Block.DecoderSpec()
		switch nb.Nesting {
		case NestingSingle:
			ret[name] = &hcldec.BlockSpec{TypeName: name, Nested: child, Required: nb.MinItems == 1}
		case NestingGroup:
			// An absent group block is its empty value, never null.
			ret[name] = &hcldec.DefaultSpec{
				Primary: &hcldec.BlockSpec{TypeName: name, Nested: child, Required: nb.MinItems == 1},
				Default: &hcldec.LiteralSpec{Value: nb.Block.EmptyValue()},
			}
		case NestingList:
			if nb.Block.ImpliedType().HasDynamicTypes() {
				ret[name] = &hcldec.BlockTupleSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
			} else {
				ret[name] = &hcldec.BlockListSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
			}
		case NestingSet:
			ret[name] = &hcldec.BlockSetSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		case NestingMap:
			if nb.Block.ImpliedType().HasDynamicTypes() {
				ret[name] = &hcldec.BlockObjectSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
			} else {
				ret[name] = &hcldec.BlockMapSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
			}
		}
	}
	return ret
}

// EmptyValue is the value of an empty body of b: every attribute null,
// nested blocks absent (null single blocks, empty collections, group blocks
// their own empty values). It is what an absent group block decodes to.
func (b *Block) EmptyValue() cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, nb := range b.BlockTypes {
		ety := nb.Block.ImpliedType()
		switch nb.Nesting {
		case NestingGroup:
			vals[name] = nb.Block.EmptyValue()
		case NestingList:
			if ety.HasDynamicTypes() {
				vals[name] = cty.EmptyTupleVal
			} else {
				vals[name] = cty.ListValEmpty(ety)
			}
		case NestingSet:
			vals[name] = cty.SetValEmpty(ety)
		case NestingMap:
			if ety.HasDynamicTypes() {
				vals[name] = cty.EmptyObjectVal
			} else {
				vals[name] = cty.MapValEmpty(ety)
			}
		default:
			vals[name] = cty.NullVal(ety)
		}
	}
	return cty.ObjectVal(vals)
}
