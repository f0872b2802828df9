package lang

import (
	"reflect"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// plainDecode is what hcldec.Decode would do with a body of arguments only,
// worked out once per body and spec: the spec is an object of attributes,
// and the body's content for it has no problem (every argument is
// expected, every required one is set, no block). Decoding such a body is
// evaluating each argument's expression and converting its value to the
// attribute's type; the content (hidden items, schema, maps of attributes)
// is the same every time and is not built again for every instance.
type plainDecode struct {
	attrs []plainAttr
}

// plainAttr is one attribute of a plainDecode: the key of its value in the
// decoded object, its type, and the expression that sets it (nil when the
// body does not set it: its value is then null).
type plainAttr struct {
	key  string
	name string
	ty   cty.Type
	null cty.Value
	expr hcl.Expression
	// konst holds expr's value when expr is constant (constantExpr);
	// plain evaluates it otherwise.
	konst *constantValue
	plain plainExpr
}

// newPlainDecode returns the plainDecode of body and spec, or nil when the
// body must be decoded by hcldec: a spec with anything but attributes and
// optional single blocks, a type with a custom expression decoder, content
// with any block, or content with any diagnostic. What depends on the spec
// alone is worked out once per spec (plainTemplateOf).
func newPlainDecode(body *hclsyntax.Body, spec hcldec.Spec) *plainDecode {
	tmpl := plainTemplateOf(spec)
	if tmpl == nil {
		return nil
	}
	content, diags := body.Content(tmpl.schema)
	if len(diags) > 0 || len(content.Blocks) > 0 {
		return nil
	}
	p := &plainDecode{attrs: slices.Clone(tmpl.attrs)}
	for i := range p.attrs {
		if p.attrs[i].name == "" {
			continue // an absent block
		}
		if a, ok := content.Attributes[p.attrs[i].name]; ok {
			p.attrs[i].expr = a.Expr
			if constantExpr(a.Expr) {
				p.attrs[i].konst = &constantValue{}
			} else {
				p.attrs[i].plain = compilePlain(a.Expr)
			}
		}
	}
	return p
}

// plainTemplate is what a plainDecode takes from its spec: its attributes
// without their expressions, and the schema of a body's content; plain is
// false when a body of the spec must be decoded by hcldec.
type plainTemplate struct {
	spec   hcldec.Spec // kept so that its address cannot be reused
	plain  bool
	attrs  []plainAttr
	schema *hcl.BodySchema
}

// plainTemplates holds the plainTemplate of each spec asked about, by its
// address. Specs are built once per schema block; countCacheEntry empties
// it with the other caches.
var plainTemplates sync.Map // uintptr → *plainTemplate

// plainTemplateOf returns the plainTemplate of spec, a map or a pointer,
// or nil when a body of spec must be decoded by hcldec: a spec with
// anything but attributes and optional single blocks, or a type with a
// custom expression decoder.
func plainTemplateOf(spec hcldec.Spec) *plainTemplate {
	key := reflect.ValueOf(spec).Pointer()
	v, ok := plainTemplates.Load(key)
	if !ok {
		countCacheEntry()
		v, _ = plainTemplates.LoadOrStore(key, newPlainTemplate(spec))
	}
	if t := v.(*plainTemplate); t.plain {
		return t
	}
	return nil
}

func newPlainTemplate(spec hcldec.Spec) *plainTemplate {
	t := &plainTemplate{spec: spec}
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return t
	}
	attrs := make([]plainAttr, 0, len(obj))
	for key, s := range obj {
		if bs, ok := s.(*hcldec.BlockSpec); ok && !bs.Required {
			// A single nested block the body does not have (checked by
			// newPlainDecode) is null, as hcldec decodes it.
			attrs = append(attrs, plainAttr{key: key, null: cty.NullVal(hcldec.ImpliedType(bs.Nested).WithoutOptionalAttributesDeep())})
			continue
		}
		as, ok := s.(*hcldec.AttrSpec)
		if !ok || customdecode.CustomExpressionDecoderForType(as.Type) != nil {
			return t
		}
		attrs = append(attrs, plainAttr{key: key, name: as.Name, ty: as.Type, null: cty.NullVal(as.Type.WithoutOptionalAttributesDeep())})
	}
	t.plain, t.attrs, t.schema = true, attrs, hcldec.ImpliedSchema(spec)
	return t
}

// decode returns the value hcldec.Decode returns for the body, or ok false
// when an expression or a conversion reports anything: the caller then
// decodes with hcldec, for its diagnostics exactly.
func (p *plainDecode) decode(ctx *hcl.EvalContext) (val cty.Value, ok bool) {
	if len(p.attrs) == 0 {
		return cty.EmptyObjectVal, true
	}
	vals := make(map[string]cty.Value, len(p.attrs))
	for _, a := range p.attrs {
		if a.expr == nil {
			vals[a.key] = a.null
			continue
		}
		if a.konst != nil {
			v, ok := a.konst.value(a.expr, a.ty, ctx)
			if !ok {
				return cty.NilVal, false
			}
			vals[a.key] = v
			continue
		}
		v, ok := a.plain.value(ctx)
		if !ok {
			return cty.NilVal, false
		}
		v, err := convert.Convert(v, a.ty)
		if err != nil {
			return cty.NilVal, false
		}
		vals[a.key] = v
	}
	return cty.ObjectVal(vals), true
}

// plainValue is the body's value decoded without hcldec, when it can be.
func (b bodyRefs) plainValue(ctx *hcl.EvalContext) (cty.Value, bool) {
	if b.plain == nil {
		return cty.NilVal, false
	}
	return b.plain.decode(ctx)
}
