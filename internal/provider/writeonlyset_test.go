package provider

import (
	"math/rand/v2"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestNullWriteOnlySkipsOnlyWhatHasNothingSet: NullWriteOnly, which leaves
// a value that sets no write-only attribute as it is, gives what the walk
// of the whole value gives, for values of every shape (nulls, unknowns,
// marks, nested blocks and attributes of every nesting).
func TestNullWriteOnlySkipsOnlyWhatHasNothingSet(t *testing.T) {
	inner := &Block{Attributes: map[string]*Attribute{
		"input":  {Type: cty.DynamicPseudoType, Optional: true, WriteOnly: true},
		"output": {Type: cty.DynamicPseudoType, Computed: true},
	}}
	rule := &Block{Attributes: map[string]*Attribute{
		"name":  {Type: cty.String, Optional: true},
		"token": {Type: cty.String, Optional: true, WriteOnly: true},
	}}
	plain := &Block{Attributes: map[string]*Attribute{"x": {Type: cty.String, Optional: true}}}
	b := &Block{
		Attributes: map[string]*Attribute{
			"id":     {Type: cty.String, Computed: true},
			"secret": {Type: cty.String, Optional: true, WriteOnly: true},
			"nested": {NestedType: &NestedObject{Nesting: NestingList, Attributes: map[string]*Attribute{
				"k":  {Type: cty.String, Optional: true},
				"wo": {Type: cty.String, Optional: true, WriteOnly: true},
			}}},
			"one": {NestedType: &NestedObject{Nesting: NestingSingle, Attributes: map[string]*Attribute{
				"wo": {Type: cty.Number, Optional: true, WriteOnly: true},
			}}},
		},
		BlockTypes: map[string]*NestedBlock{
			"store": {Nesting: NestingSingle, Block: *inner},
			"rules": {Nesting: NestingSet, Block: *rule},
			"byKey": {Nesting: NestingMap, Block: *rule},
			"list":  {Nesting: NestingList, Block: *rule},
			"plain": {Nesting: NestingList, Block: *plain},
		},
	}
	ty := b.ImpliedType()
	r := rand.New(rand.NewPCG(5, 6))
	skipped, changed := 0, 0
	for i := range 5000 {
		v := randomValue(r, ty, 0)
		got, want := b.NullWriteOnly(v), v
		if v.IsKnown() && !v.IsNull() {
			want = b.nullWriteOnlyAll(v)
		}
		if !got.RawEquals(want) {
			t.Fatalf("value %d: NullWriteOnly(%#v)\n= %#v\nwant %#v", i, v, got, want)
		}
		if b.writeOnlySet(v) {
			changed++
		} else {
			skipped++
		}
	}
	if skipped == 0 || changed == 0 {
		t.Fatalf("values skipped %d, changed %d: want some of each", skipped, changed)
	}
}

// randomValue returns a value of type ty: null, unknown, marked or not,
// with collections of up to two elements.
func randomValue(r *rand.Rand, ty cty.Type, depth int) cty.Value {
	switch n := r.IntN(10); {
	case n == 0 || depth > 3:
		return cty.NullVal(ty)
	case n == 1 && depth > 0:
		return cty.UnknownVal(ty)
	}
	var v cty.Value
	switch {
	case ty == cty.DynamicPseudoType:
		v = cty.StringVal("dyn")
		if r.IntN(2) == 0 {
			v = cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})
		}
	case ty.IsPrimitiveType():
		switch ty {
		case cty.String:
			v = cty.StringVal("s")
		case cty.Number:
			v = cty.NumberIntVal(int64(r.IntN(3)))
		default:
			v = cty.True
		}
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			attrs[name] = randomValue(r, aty, depth+1)
		}
		v = cty.ObjectVal(attrs)
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		n := r.IntN(3)
		if n == 0 {
			switch {
			case ty.IsListType():
				return cty.ListValEmpty(ty.ElementType())
			case ty.IsSetType():
				return cty.SetValEmpty(ty.ElementType())
			}
			return cty.MapValEmpty(ty.ElementType())
		}
		var els []cty.Value
		m := map[string]cty.Value{}
		for i := range n {
			el := randomValue(r, ty.ElementType(), depth+1)
			els = append(els, el)
			m[string(rune('a'+i))] = el
		}
		switch {
		case ty.IsListType():
			v = cty.ListVal(els)
		case ty.IsSetType():
			v = cty.SetVal(els)
		default:
			v = cty.MapVal(m)
		}
	default:
		return cty.NullVal(ty)
	}
	if r.IntN(6) == 0 {
		v = v.Mark("sensitive")
	}
	return v
}
