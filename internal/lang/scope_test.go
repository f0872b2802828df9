package lang

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// fakeData serves values from maps; a missing name is an error diagnostic.
type fakeData struct {
	vars      map[string]cty.Value
	locals    map[string]cty.Value
	resources map[addrs.Resource]cty.Value
	modules   map[string]cty.Value
}

func (d *fakeData) ModuleCall(name string, outputs []string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if v, ok := d.modules[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared module", name)}
}

func (d *fakeData) InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if v, ok := d.vars[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared input variable", name)}
}

func (d *fakeData) LocalValue(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if v, ok := d.locals[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared local value", name)}
}

func (d *fakeData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if v, ok := d.resources[addr]; ok {
		return v, nil
	}
	return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared resource", addr.String())}
}

func testData() *fakeData {
	return &fakeData{
		vars: map[string]cty.Value{
			"name":    cty.StringVal("web"),
			"unknown": cty.UnknownVal(cty.String),
			"list":    cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			"n":       cty.NumberIntVal(3),
		},
		locals: map[string]cty.Value{
			"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
		},
		modules: map[string]cty.Value{
			"child": cty.ObjectVal(map[string]cty.Value{"out": cty.StringVal("from child")}),
			"counted": cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"out": cty.StringVal("a")}),
				cty.ObjectVal(map[string]cty.Value{"out": cty.StringVal("b")}),
			}),
		},
		resources: map[addrs.Resource]cty.Value{
			{Mode: addrs.Managed, Type: "terraform_data", Name: "single"}: cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("abc"), "output": cty.UnknownVal(cty.String),
			}),
			{Mode: addrs.Managed, Type: "terraform_data", Name: "counted"}: cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("c0")}),
				cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("c1")}),
			}),
			{Mode: addrs.Managed, Type: "terraform_data", Name: "each"}: cty.ObjectVal(map[string]cty.Value{
				"a": cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ea")}),
			}),
			{Mode: addrs.Data, Type: "null_data_source", Name: "d"}: cty.ObjectVal(map[string]cty.Value{
				"outputs": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
			}),
			{Mode: addrs.Managed, Type: "terraform_data", Name: "pending"}: cty.DynamicVal,
		},
	}
}

func parseExpr(t testing.TB, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse %q: %s", src, diags)
	}
	return expr
}

func TestEvalExprReferenceKinds(t *testing.T) {
	s := &Scope{
		Data:      testData(),
		ModuleDir: "mod", RootDir: "root", Env: Env{Cwd: "/work", Workspace: "staging"},
		Instance: InstanceData{CountIndex: cty.NumberIntVal(1), EachKey: cty.StringVal("k"), EachValue: cty.StringVal("v")},
		Self:     cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("me")}),
	}
	tests := []struct {
		src  string
		want cty.Value
	}{
		{`var.name`, cty.StringVal("web")},
		{`"${var.name}-${var.n}"`, cty.StringVal("web-3")},
		{`var.list[1]`, cty.StringVal("b")},
		{`local.tags.env`, cty.StringVal("prod")},
		{`terraform_data.single.id`, cty.StringVal("abc")},
		{`resource.terraform_data.single.id`, cty.StringVal("abc")},
		{`terraform_data.counted[count.index].id`, cty.StringVal("c1")},
		{`terraform_data.counted[*].id`, cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("c1")})},
		{`terraform_data.each["a"].id`, cty.StringVal("ea")},
		{`data.null_data_source.d.outputs.k`, cty.StringVal("v")},
		{`count.index`, cty.NumberIntVal(1)},
		{`each.key`, cty.StringVal("k")},
		{`each.value`, cty.StringVal("v")},
		{`path.module`, cty.StringVal("mod")},
		{`path.root`, cty.StringVal("root")},
		{`path.cwd`, cty.StringVal("/work")},
		{`terraform.workspace`, cty.StringVal("staging")},
		{`tofu.workspace`, cty.StringVal("staging")},
		{`"${terraform.workspace}/${tofu.workspace}"`, cty.StringVal("staging/staging")},
		{`self.id`, cty.StringVal("me")},
		{`upper(var.name)`, cty.StringVal("WEB")},
		// Unknown values flow through instead of failing.
		{`var.unknown`, cty.UnknownVal(cty.String)},
		{`"${var.unknown}-x"`, cty.UnknownVal(cty.String).RefineNotNull()},
		{`terraform_data.single.output`, cty.UnknownVal(cty.String)},
		{`terraform_data.pending.anything`, cty.DynamicVal},
		{`length(var.unknown)`, cty.UnknownVal(cty.Number).Refine().NotNull().NumberRangeLowerBound(cty.Zero, true).NewValue()},
		{`module.child.out`, cty.StringVal("from child")},
		{`module.counted[1].out`, cty.StringVal("b")},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %v", diags.Err())
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestEvalExprErrors(t *testing.T) {
	plain := &Scope{Data: testData()}
	keyOnly := &Scope{Data: testData(), Instance: InstanceData{EachKey: cty.StringVal("gone")}}
	tests := []struct {
		scope   *Scope
		src     string
		want    cty.Type
		summary string
	}{
		{plain, `count.index`, cty.DynamicPseudoType, `Reference to "count" in non-counted context`},
		{plain, `each.key`, cty.DynamicPseudoType, `Reference to "each" in context without for_each`},
		{plain, `each.value`, cty.DynamicPseudoType, `Reference to "each" in context without for_each`},
		{keyOnly, `each.value`, cty.DynamicPseudoType, `each.value cannot be used in this context`},
		{plain, `self.id`, cty.DynamicPseudoType, `Invalid "self" reference`},
		{plain, `var.missing`, cty.DynamicPseudoType, "Reference to undeclared input variable"},
		{plain, `var`, cty.DynamicPseudoType, "Invalid reference"},
		{plain, `var.list`, cty.Number, "Incorrect value type"},
		{plain, `nosuchfunc(1)`, cty.DynamicPseudoType, "Call to unknown function"},
		{plain, `var.name + 1`, cty.DynamicPseudoType, "Invalid operand"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, diags := tt.scope.EvalExpr(parseExpr(t, tt.src), tt.want)
			if !diags.HasErrors() || diags[0].Summary != tt.summary {
				t.Fatalf("diagnostics = %v, want %q", diags, tt.summary)
			}
			if diags[0].Subject == nil || diags[0].Subject.Filename != "test.tf" {
				t.Errorf("diagnostic without range: %+v", diags[0])
			}
			if tt.want != cty.DynamicPseudoType && !got.Type().Equals(tt.want) {
				t.Errorf("result type %#v, want %#v", got.Type(), tt.want)
			}
		})
	}
	_, diags := plain.EvalExpr(parseExpr(t, `var.list`), cty.Number)
	if want := "Invalid expression value: number required, but have list of string."; diags[0].Detail != want {
		t.Errorf("detail = %q, want %q", diags[0].Detail, want)
	}
}

func TestEvalExprConverts(t *testing.T) {
	s := &Scope{Data: testData()}
	got, diags := s.EvalExpr(parseExpr(t, `var.n`), cty.String)
	if diags.HasErrors() || !got.RawEquals(cty.StringVal("3")) {
		t.Errorf("got %#v %v", got, diags)
	}
}

func TestEvalContextBuildsOnlyWhatIsReferenced(t *testing.T) {
	s := &Scope{Data: testData()}
	refs, _ := ReferencesInExpr(parseExpr(t, `var.name`))
	ctx, diags := s.EvalContext(refs)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	if len(ctx.Variables) != 1 || ctx.Variables["var"].Type().AttributeTypes()["name"] != cty.String {
		t.Errorf("variables = %#v", ctx.Variables)
	}
	if ctx.Functions["upper"].Params() == nil {
		t.Error("functions missing from the context")
	}
}

func TestEvalBlockExpandsDynamicBlocks(t *testing.T) {
	src := `
name = var.name
dynamic "rule" {
  for_each = var.list
  content {
    port = rule.key
    cidr = "${rule.value}-${count.index}"
  }
}
rule {
  port = 99
  cidr = "static"
}
`
	file, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	spec := hcldec.ObjectSpec{
		"name": &hcldec.AttrSpec{Name: "name", Type: cty.String},
		"rule": &hcldec.BlockListSpec{TypeName: "rule", Nested: hcldec.ObjectSpec{
			"port": &hcldec.AttrSpec{Name: "port", Type: cty.Number},
			"cidr": &hcldec.AttrSpec{Name: "cidr", Type: cty.String},
		}},
	}
	s := &Scope{Data: testData(), Instance: InstanceData{CountIndex: cty.NumberIntVal(7)}}
	got, ediags := s.EvalBlock(file.Body, spec)
	if ediags.HasErrors() {
		t.Fatal(ediags.Err())
	}
	rule := func(port int, cidr string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(int64(port)), "cidr": cty.StringVal(cidr)})
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("web"),
		"rule": cty.ListVal([]cty.Value{rule(0, "a-7"), rule(1, "b-7"), rule(99, "static")}),
	})
	if !got.RawEquals(want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}

	// An unknown for_each makes the dynamic blocks unknown, not an error.
	unknown := &fakeData{vars: map[string]cty.Value{"name": cty.StringVal("x"), "list": cty.UnknownVal(cty.List(cty.String))}}
	got, ediags = (&Scope{Data: unknown, Instance: InstanceData{CountIndex: cty.NumberIntVal(0)}}).EvalBlock(file.Body, spec)
	if ediags.HasErrors() {
		t.Fatal(ediags.Err())
	}
	if got.GetAttr("rule").IsWhollyKnown() {
		t.Errorf("rule = %#v, want unknown", got.GetAttr("rule"))
	}
}

func TestEvalNilAndMarked(t *testing.T) {
	s := &Scope{Data: &fakeData{vars: map[string]cty.Value{
		"secret": cty.StringVal("pw").Mark("sensitive"),
		"n":      cty.NumberIntVal(2).Mark("sensitive"),
	}}}
	if v, diags := s.EvalExpr(nil, cty.String); diags != nil || !v.RawEquals(cty.NullVal(cty.String)) {
		t.Errorf("nil expression = %#v %v", v, diags)
	}
	if v, diags := s.EvalBlock(nil, hcldec.ObjectSpec{}); diags.HasErrors() || !v.RawEquals(cty.EmptyObjectVal) {
		t.Errorf("nil body = %#v %v", v, diags)
	}
	v, diags := s.EvalExpr(parseExpr(t, `upper(var.secret)`), cty.String)
	if diags.HasErrors() || !v.HasMark("sensitive") {
		t.Errorf("marked value = %#v %v, want a marked result", v, diags)
	}
	if n, diags := EvalCount(s, parseExpr(t, `var.n`)); n != 2 || diags.HasErrors() {
		t.Errorf("sensitive count = %d %v, want 2", n, diags)
	}
}

func TestScopeFunctionsDependOnScope(t *testing.T) {
	ts := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	s := &Scope{Data: testData(), PlanTimestamp: ts}
	got, diags := s.EvalExpr(parseExpr(t, `plantimestamp()`), cty.String)
	if diags.HasErrors() || !got.RawEquals(cty.StringVal("2024-05-06T07:08:09Z")) {
		t.Errorf("plantimestamp() = %#v %v", got, diags)
	}
	got, _ = (&Scope{Data: testData()}).EvalExpr(parseExpr(t, `plantimestamp()`), cty.String)
	if got.IsKnown() {
		t.Errorf("plantimestamp() without a plan time = %#v, want unknown", got)
	}
	got, _ = (&Scope{Data: testData(), PureOnly: true}).EvalExpr(parseExpr(t, `uuid()`), cty.String)
	if got.IsKnown() {
		t.Errorf("uuid() in a pure scope = %#v, want unknown", got)
	}
}

// BenchmarkScopePerInstance evaluates a small resource body for 100,000
// instances, each with its own Scope, as planning does.
func BenchmarkScopePerInstance(b *testing.B) {
	data := testData()
	expr := parseExpr(b, `"${var.name}-${count.index}-${terraform_data.single.id}"`)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 100_000 {
			s := &Scope{Data: data, Instance: InstanceData{CountIndex: cty.NumberIntVal(int64(i))}}
			if _, diags := s.EvalExpr(expr, cty.String); diags.HasErrors() {
				b.Fatal(diags.Err())
			}
		}
	}
}

// BenchmarkEvalBlockPerInstance decodes a small resource body for 100,000
// instances, each with its own Scope.
func BenchmarkEvalBlockPerInstance(b *testing.B) {
	file, diags := hclsyntax.ParseConfig([]byte("input = \"${var.name}-${count.index}\"\nid = terraform_data.single.id\nn = var.n\n"), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	spec := hcldec.ObjectSpec{
		"input": &hcldec.AttrSpec{Name: "input", Type: cty.String},
		"id":    &hcldec.AttrSpec{Name: "id", Type: cty.String},
		"n":     &hcldec.AttrSpec{Name: "n", Type: cty.Number},
	}
	data := testData()
	b.ReportAllocs()
	for b.Loop() {
		for i := range 100_000 {
			s := &Scope{Data: data, Instance: InstanceData{CountIndex: cty.NumberIntVal(int64(i))}}
			if _, diags := s.EvalBlock(file.Body, spec); diags.HasErrors() {
				b.Fatal(diags.Err())
			}
		}
	}
}

func ExampleScope_EvalExpr() {
	s := &Scope{Data: testData(), Instance: InstanceData{CountIndex: cty.NumberIntVal(2)}}
	expr, _ := hclsyntax.ParseExpression([]byte(`"${var.name}-${count.index}"`), "main.tf", hcl.InitialPos)
	v, _ := s.EvalExpr(expr, cty.String)
	fmt.Println(v.AsString())
	// Output: web-2
}
