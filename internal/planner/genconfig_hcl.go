package planner

import (
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/provider"
)

// ResourceConfig renders the resource block for resource r whose object
// is v, as OpenTofu generates configuration for an import: a provider
// argument when ref is not nil, then every Required and Optional
// attribute of schema in name order with its value (null when the value
// is null, `null # sensitive` for a sensitive one, jsonencode(...) for a
// string holding a JSON object or array, null for an empty optional
// string), computed-only attributes left out, then the nested blocks in
// name order, one per element. The result is formatted HCL ending in a
// newline.
func ResourceConfig(r addrs.Resource, ref *config.ProviderConfigRef, schema *provider.Block, v cty.Value) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body().AppendNewBlock("resource", []string{r.Type, r.Name}).Body()
	if ref != nil {
		tr := hcl.Traversal{hcl.TraverseRoot{Name: ref.Name}}
		if ref.Alias != "" {
			tr = append(tr, hcl.TraverseAttr{Name: ref.Alias})
		}
		if ref.KeyExpr != nil {
			// A literal key (see generateResource).
			if k, ds := ref.KeyExpr.Value(nil); !ds.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() {
				tr = append(tr, hcl.TraverseIndex{Key: k})
			}
		}
		body.SetAttributeTraversal("provider", tr)
	}
	writeBlockBody(body, schema, v)
	return hclwrite.Format(f.Bytes())
}

// writeBlockBody writes the attributes and nested blocks of an object v
// of schema into body.
func writeBlockBody(body *hclwrite.Body, schema *provider.Block, v cty.Value) {
	for _, name := range slices.Sorted(maps.Keys(schema.Attributes)) {
		a := schema.Attributes[name]
		if !a.Required && !a.Optional {
			continue
		}
		av := cty.NullVal(a.ImpliedType())
		if !v.IsNull() && v.Type().HasAttribute(name) {
			av = v.GetAttr(name)
		}
		if !av.IsWhollyKnown() {
			continue
		}
		body.SetAttributeRaw(name, attributeTokens(a, av))
	}
	for _, name := range slices.Sorted(maps.Keys(schema.BlockTypes)) {
		nb := schema.BlockTypes[name]
		if v.IsNull() || !v.Type().HasAttribute(name) {
			continue
		}
		bv := v.GetAttr(name)
		if bv.IsNull() || !bv.IsKnown() {
			continue
		}
		switch nb.Nesting {
		case provider.NestingSingle, provider.NestingGroup:
			writeBlockBody(body.AppendNewBlock(name, nil).Body(), &nb.Block, bv)
		case provider.NestingList, provider.NestingSet:
			for it := bv.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				writeBlockBody(body.AppendNewBlock(name, nil).Body(), &nb.Block, ev)
			}
		case provider.NestingMap:
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				writeBlockBody(body.AppendNewBlock(name, []string{k.AsString()}).Body(), &nb.Block, ev)
			}
		}
	}
}

// attributeTokens is the expression written for attribute a with the
// known value v.
func attributeTokens(a *provider.Attribute, v cty.Value) hclwrite.Tokens {
	if a.Sensitive {
		placeholder := "null"
		if a.NestedType != nil {
			switch a.NestedType.Nesting {
			case provider.NestingList, provider.NestingSet:
				placeholder = "[]"
			default:
				placeholder = "{}"
			}
		}
		return hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte(placeholder + " # sensitive")}}
	}
	if a.NestedType != nil {
		return hclwrite.TokensForValue(nestedConfigValue(a.NestedType, v))
	}
	if v.Type() == cty.String && !v.IsNull() {
		s := v.AsString()
		if a.Optional && s == "" {
			// Legacy providers report an unset optional string as "".
			return hclwrite.TokensForValue(cty.NullVal(cty.String))
		}
		if t, ok := jsonEncodeTokens(s); ok {
			return t
		}
	}
	return hclwrite.TokensForValue(v)
}

// nestedConfigValue is v, a value of a nested attribute type, without its
// computed-only attributes.
func nestedConfigValue(nt *provider.NestedObject, v cty.Value) cty.Value {
	if v.IsNull() {
		return v
	}
	object := func(ov cty.Value) cty.Value {
		if ov.IsNull() {
			return ov
		}
		vals := map[string]cty.Value{}
		for name, a := range nt.Attributes {
			if !a.Required && !a.Optional {
				continue
			}
			av := ov.GetAttr(name)
			if a.NestedType != nil {
				av = nestedConfigValue(a.NestedType, av)
			}
			vals[name] = av
		}
		return cty.ObjectVal(vals)
	}
	switch nt.Nesting {
	case provider.NestingList, provider.NestingSet:
		var elems []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			elems = append(elems, object(ev))
		}
		return cty.TupleVal(elems)
	case provider.NestingMap:
		elems := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			elems[k.AsString()] = object(ev)
		}
		return cty.ObjectVal(elems)
	default:
		return object(v)
	}
}

// jsonEncodeTokens writes s, a string holding a JSON object or array, as
// a jsonencode call of its value.
func jsonEncodeTokens(s string) (hclwrite.Tokens, bool) {
	b := []byte(strings.TrimSpace(s))
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return nil, false
	}
	t, err := ctyjson.ImpliedType(b)
	if err != nil {
		return nil, false
	}
	v, err := ctyjson.Unmarshal(b, t)
	if err != nil {
		return nil, false
	}
	return hclwrite.TokensForFunctionCall("jsonencode", hclwrite.TokensForValue(v)), true
}
