package jsonformat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// The expressions of the JSON configuration representation: unevaluated,
// as the constant they are or the references they make.

// repetitionJSON returns the count_expression or for_each_expression:
// count's when it says anything (a constant or references), else
// for_each's when that does; nil for neither.
func repetitionJSON(count, forEach hcl.Expression) (countJSON, forEachJSON json.RawMessage) {
	if count != nil {
		if j := expressionJSON(count); !emptyExpression(j) {
			return j, nil
		}
	}
	if forEach != nil {
		if j := expressionJSON(forEach); !emptyExpression(j) {
			return nil, j
		}
	}
	return nil, nil
}

func emptyExpression(j json.RawMessage) bool { return string(j) == "{}" }

// dependsOn renders depends_on entries as the addresses they name:
// module.net, terraform_data.a, data.x.y. An entry that is not a valid
// reference is rendered as "".
func dependsOn(travs []hcl.Traversal) []string {
	if len(travs) == 0 {
		return nil
	}
	out := make([]string, len(travs))
	for i, t := range travs {
		if ref, ds := lang.ParseRef(t); !ds.HasErrors() && ref != nil {
			out[i] = ref.String()
		}
	}
	return out
}

// bodyExpressions describes the arguments of body that blk declares: each
// attribute as expressionJSON gives it, each nested block as an object of
// its own arguments (single and group blocks) or an array of such objects
// (list, set and map blocks, labels dropped). Anything blk does not
// declare, "dynamic" blocks included, is left out; nil when nothing is
// left or blk is nil.
func bodyExpressions(body hcl.Body, blk *provider.Block) map[string]json.RawMessage {
	if body == nil || blk == nil {
		return nil
	}
	exprs := bodyExpressionMap(body, blk)
	if len(exprs) == 0 {
		return nil
	}
	return exprs
}

func bodyExpressionMap(body hcl.Body, blk *provider.Block) map[string]json.RawMessage {
	content, _, _ := body.PartialContent(hcldec.ImpliedSchema(blk.DecoderSpec()))
	out := map[string]json.RawMessage{}
	if content == nil {
		return out
	}
	for name, attr := range content.Attributes {
		out[name] = expressionJSON(attr.Expr)
	}
	lists := map[string][]map[string]json.RawMessage{}
	for _, b := range content.Blocks {
		nb := blk.BlockTypes[b.Type]
		if nb == nil {
			continue
		}
		inner := bodyExpressionMap(b.Body, &nb.Block)
		switch nb.Nesting {
		case provider.NestingSingle, provider.NestingGroup:
			out[b.Type] = mustJSON(inner)
		case provider.NestingList, provider.NestingSet, provider.NestingMap:
			lists[b.Type] = append(lists[b.Type], inner)
		}
	}
	for name, l := range lists {
		out[name] = mustJSON(l)
	}
	return out
}

// expressionJSON describes an unevaluated expression: {"constant_value": V}
// when it evaluates without any context (a literal), {"references": [...]}
// listing what it refers to (see referenceStrings), both, or {} for
// neither (a function call on literals, say).
func expressionJSON(expr hcl.Expression) json.RawMessage {
	var out struct {
		ConstantValue json.RawMessage `json:"constant_value,omitempty"`
		References    []string        `json:"references,omitempty"`
	}
	if expr == nil {
		return mustJSON(out)
	}
	if v, _ := expr.Value(nil); v != cty.NilVal && v.IsWhollyKnown() && !v.ContainsMarked() {
		out.ConstantValue = constantJSON(v)
	}
	refs, _ := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		out.References = append(out.References, referenceStrings(ref)...)
	}
	return mustJSON(out)
}

// referenceStrings lists one reference as Terraform's JSON formats do:
// the whole traversal, then shorter and shorter prefixes down to the
// referenced object, then, for an instance of a resource or module call,
// the resource or call itself, and for a module output, the module
// (instance) it belongs to: terraform_data.a[0].output.name gives
// terraform_data.a[0].output.name, terraform_data.a[0].output,
// terraform_data.a[0], terraform_data.a.
func referenceStrings(ref *lang.Reference) []string {
	subject := ref.String()
	var out []string
	for n := len(ref.Remaining); n > 0; n-- {
		out = append(out, subject+traversalSuffix(ref.Remaining[:n]))
	}
	out = append(out, subject)
	switch ref.Kind {
	case lang.ResourceRef:
		if ref.KeyGiven {
			out = append(out, ref.Resource.String())
		}
	case lang.ModuleCallOutput:
		call := "module." + ref.Name
		switch {
		case ref.Output != "" && ref.KeyGiven:
			out = append(out, call+ref.Key.String())
		case ref.Output != "":
			out = append(out, call)
		case ref.KeyGiven:
			out = append(out, call)
		}
	}
	return out
}

// traversalSuffix renders relative traversal steps: .name for attributes,
// [KEY] for index keys of primitive type (strings quoted, numbers in at
// most ten significant digits), [...] for others.
func traversalSuffix(steps hcl.Traversal) string {
	var b strings.Builder
	for _, step := range steps {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + indexKeyString(s.Key) + "]")
		}
	}
	return b.String()
}

func indexKeyString(k cty.Value) string {
	switch {
	case k.IsMarked():
		return "(sensitive value)"
	case !k.Type().IsPrimitiveType():
		return "..."
	case k.IsNull():
		return "null"
	case !k.IsKnown():
		return "(not yet known)"
	case k.Type() == cty.Bool:
		return fmt.Sprint(k.True())
	case k.Type() == cty.Number:
		return k.AsBigFloat().Text('g', 10)
	}
	return fmt.Sprintf("%q", k.AsString())
}

// constantJSON encodes a known value in its own type.
func constantJSON(v cty.Value) json.RawMessage {
	j, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil
	}
	return j
}

// mustJSON encodes values built here of maps, slices, strings and raw
// JSON, which cannot fail to encode.
func mustJSON(v any) json.RawMessage {
	j, _ := json.Marshal(v)
	return j
}
