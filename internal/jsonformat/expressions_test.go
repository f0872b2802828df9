package jsonformat

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider"
)

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, ds := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("parsing %s: %s", src, ds)
	}
	return expr
}

func TestExpressionJSON(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"string literal", `"a"`, `{"constant_value":"a"}`},
		{"null", `null`, `{"constant_value":null}`},
		{"object literal", `{ b = 1, a = ["x", true] }`, `{"constant_value":{"a":["x",true],"b":1}}`},
		{"variable", `var.x`, `{"references":["var.x"]}`},
		{"variable attribute", `var.obj.a`, `{"references":["var.obj.a","var.obj"]}`},
		{"variable string index", `var.obj["a"]`, `{"references":["var.obj[\"a\"]","var.obj"]}`},
		{"variable number index", `var.m[1.5]`, `{"references":["var.m[1.5]","var.m"]}`},
		{"computed index", `var.m[var.k]`, `{"references":["var.m","var.k"]}`},
		{"local value", `local.l[0]`, `{"references":["local.l[0]","local.l"]}`},
		{"resource attribute", `terraform_data.a.id`, `{"references":["terraform_data.a.id","terraform_data.a"]}`},
		{"resource instance", `terraform_data.a["k"]`, `{"references":["terraform_data.a[\"k\"]","terraform_data.a"]}`},
		{"resource instance attribute path", `terraform_data.a[0].output.name`,
			`{"references":["terraform_data.a[0].output.name","terraform_data.a[0].output","terraform_data.a[0]","terraform_data.a"]}`},
		{"resource splat", `terraform_data.a[*].id`, `{"references":["terraform_data.a"]}`},
		{"data resource", `data.d.x.y`, `{"references":["data.d.x.y","data.d.x"]}`},
		{"module", `module.net`, `{"references":["module.net"]}`},
		{"module output", `module.net.vpc_id`, `{"references":["module.net.vpc_id","module.net"]}`},
		{"module instance", `module.svc[0]`, `{"references":["module.svc[0]","module.svc"]}`},
		{"module instance output path", `module.svc["api"].ids[0]`,
			`{"references":["module.svc[\"api\"].ids[0]","module.svc[\"api\"].ids","module.svc[\"api\"]"]}`},
		{"module splat", `module.svc[*].id`, `{"references":["module.svc"]}`},
		{"each and count", `"${each.key}-${each.value.name}-${count.index}"`,
			`{"references":["each.key","each.value.name","each.value","count.index"]}`},
		{"path and workspace", `"${path.module}/${terraform.workspace}"`, `{"references":["path.module","terraform.workspace"]}`},
		{"source order with repeats", `cidrsubnet(var.cidr, 8, index(var.zones, each.key)) == each.key`,
			`{"references":["var.cidr","var.zones","each.key","each.key"]}`},
		{"for expression iterator left out", `[for z in var.zones : terraform_data.s[z].id]`, `{"references":["var.zones","terraform_data.s"]}`},
		{"constant with references", `[for x in [] : var.n]`, `{"constant_value":[],"references":["var.n"]}`},
		{"function of literals", `upper("a")`, `{}`},
		{"invalid reference left out", `count.nope`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(expressionJSON(parseExpr(t, tt.src)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("expressionJSON(%s) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
	if got := string(expressionJSON(nil)); got != `{}` {
		t.Errorf("expressionJSON(nil) = %s, want {}", got)
	}
}

func TestTraversalSuffix(t *testing.T) {
	steps := hcl.Traversal{
		hcl.TraverseAttr{Name: "a"},
		hcl.TraverseIndex{Key: cty.StringVal("k\"")},
		hcl.TraverseIndex{Key: cty.NumberIntVal(12345678901)},
		hcl.TraverseIndex{Key: cty.True},
		hcl.TraverseIndex{Key: cty.ListValEmpty(cty.String)},
		hcl.TraverseIndex{Key: cty.NullVal(cty.String)},
	}
	want := `.a["k\""][1.23456789e+10][true][...][null]`
	if got := traversalSuffix(steps); got != want {
		t.Errorf("traversalSuffix = %s, want %s", got, want)
	}
}

func TestRepetitionJSON(t *testing.T) {
	tests := []struct {
		name, count, forEach string
		wantCount, wantEach  string
	}{
		{"count constant", "2", "", `{"constant_value":2}`, ""},
		{"count reference", "var.n", "", `{"references":["var.n"]}`, ""},
		{"for_each reference", "", "var.m", "", `{"references":["var.m"]}`},
		{"for_each of a function of literals says nothing", "", `toset(["a"])`, "", ""},
		{"neither", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var count, forEach hcl.Expression
			if tt.count != "" {
				count = parseExpr(t, tt.count)
			}
			if tt.forEach != "" {
				forEach = parseExpr(t, tt.forEach)
			}
			c, e := repetitionJSON(count, forEach)
			if string(c) != tt.wantCount || string(e) != tt.wantEach {
				t.Errorf("repetitionJSON = %s, %s; want %s, %s", c, e, tt.wantCount, tt.wantEach)
			}
		})
	}
}

func TestBodyExpressions(t *testing.T) {
	src := `
name  = "x"
tags  = { a = var.a }
other = "not in the schema"
single {
  v = 1
}
rule {
  v = var.r
}
rule {
  v = 2
}
item "k" {
  v = 3
}
dynamic "rule" {
  for_each = var.rules
  content {
    v = rule.value
  }
}
`
	f, ds := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	inner := provider.Block{Attributes: map[string]*provider.Attribute{"v": {Type: cty.Number, Optional: true}}}
	blk := &provider.Block{
		Attributes: map[string]*provider.Attribute{
			"name": {Type: cty.String, Required: true},
			"tags": {Type: cty.Map(cty.String), Optional: true},
			"id":   {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*provider.NestedBlock{
			"single": {Block: inner, Nesting: provider.NestingSingle},
			"rule":   {Block: inner, Nesting: provider.NestingList},
			"item":   {Block: inner, Nesting: provider.NestingMap},
			"unused": {Block: inner, Nesting: provider.NestingSet},
		},
	}
	got, err := json.Marshal(bodyExpressions(f.Body, blk))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"item":[{"v":{"constant_value":3}}],"name":{"constant_value":"x"},` +
		`"rule":[{"v":{"references":["var.r"]}},{"v":{"constant_value":2}}],` +
		`"single":{"v":{"constant_value":1}},"tags":{"references":["var.a"]}}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("bodyExpressions (-want +got):\n%s", diff)
	}
	if got := bodyExpressions(f.Body, nil); got != nil {
		t.Errorf("bodyExpressions without a schema = %v, want nil", got)
	}
	empty, _ := hclsyntax.ParseConfig([]byte("other = 1\n"), "empty.tf", hcl.InitialPos)
	if got := bodyExpressions(empty.Body, blk); got != nil {
		t.Errorf("bodyExpressions of a body with nothing declared = %v, want nil", got)
	}
}
