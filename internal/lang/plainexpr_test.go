package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestPlainExprMatchesHCL: a compiled expression evaluates to hclsyntax's
// value wherever hclsyntax reports nothing, and reports failure wherever
// it reports anything, for references to known, unknown, null, marked and
// missing values, maps and lists, and objects with duplicate, quoted and
// numeric keys.
func TestPlainExprMatchesHCL(t *testing.T) {
	obj := func(id cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "output": cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("o")})})
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"terraform_data": cty.ObjectVal(map[string]cty.Value{
				"a":       obj(cty.StringVal("id-a")),
				"unknown": obj(cty.UnknownVal(cty.String).RefineNotNull()),
				"whole":   cty.UnknownVal(obj(cty.StringVal("")).Type()),
				"secret":  obj(cty.StringVal("s")).Mark("sensitive"),
				"null":    cty.NullVal(obj(cty.StringVal("")).Type()),
				"list":    cty.ListVal([]cty.Value{obj(cty.StringVal("l0"))}),
				"map":     cty.MapVal(map[string]cty.Value{"k": cty.StringVal("m")}),
			}),
			"dyn": cty.DynamicVal,
		},
		Functions: (&Scope{}).Functions(),
	}
	tests := []string{
		`terraform_data.a.id`,
		`terraform_data.a.output.v`,
		`terraform_data.a`,
		`terraform_data.unknown.id`,
		`terraform_data.whole.id`,
		`terraform_data.secret.id`,
		`terraform_data.null.id`,
		`terraform_data.a.missing`,
		`terraform_data.missing.id`,
		`missing.a`,
		`terraform_data.list[0].id`,
		`terraform_data.map.k`,
		`terraform_data.map.nope`,
		`dyn.anything`,
		`{ value = "v1-100", refs = [terraform_data.a.id, terraform_data.unknown.id, terraform_data.secret.id] }`,
		`{ value = "v", value = "w", "quoted" = 1, 2 = true }`,
		`{ value = terraform_data.missing.id }`,
		`{ (terraform_data.a.id) = 1 }`,
		`[terraform_data.a.id, "x", [terraform_data.null.id]]`,
		`[upper(terraform_data.a.id)]`,
		`"${terraform_data.a.id}-x"`,
		`{ a = { b = [terraform_data.a.output] } }`,
		`{}`,
		`[]`,
	}
	for _, src := range tests {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags)
		}
		want, wantDiags := expr.Value(ctx)
		p := compilePlain(expr)
		for round := range 2 {
			got, ok := p.value(ctx)
			if ok != (len(wantDiags) == 0) {
				t.Errorf("%s (round %d): ok = %v, hclsyntax's diagnostics: %v", src, round, ok, wantDiags)
				continue
			}
			if ok && !got.RawEquals(want) {
				t.Errorf("%s (round %d): %#v, hclsyntax's %#v", src, round, got, want)
			}
		}
	}
	// The shapes of the layered configurations take the fast paths.
	expr, _ := hclsyntax.ParseExpression([]byte(tests[14]), "test.tf", hcl.InitialPos)
	o, ok := compilePlain(expr).(*objectCons)
	if !ok {
		t.Fatalf("%s compiled to %T", tests[14], compilePlain(expr))
	}
	if _, ok := o.vals[0].(*constantExprValue); !ok {
		t.Errorf("a literal value compiled to %T", o.vals[0])
	}
	if refs, ok := o.vals[1].(*tupleCons); !ok {
		t.Errorf("a tuple compiled to %T", o.vals[1])
	} else if _, ok := refs.elems[0].(*attrRef); !ok {
		t.Errorf("a reference compiled to %T", refs.elems[0])
	}
}
