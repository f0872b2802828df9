package lang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestConstantExpr: only literals, templates of literals and tuples and
// objects of them with literal keys count as constant.
func TestConstantExpr(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`"t1"`, true},
		{`42`, true},
		{`null`, true},
		{`true`, true},
		{`{ value = "v1-0", refs = [] }`, true},
		{`["a", 1, { "k" = [true] }]`, true},
		{"<<EOT\nplain\nEOT\n", true},
		{`"a-${"b"}"`, true},
		{`var.x`, false},
		{`"a-${var.x}"`, false},
		{`{ value = var.x }`, false},
		{`{ (var.k) = 1 }`, false},
		{`{ (k) = 1 }`, false},
		{`{ a.b = 1 }`, false},
		{`[upper("a")]`, false},
		{`file("x")`, false},
		{`timestamp()`, false},
		{`[for x in ["a"]: x]`, false},
		{`1 + 2`, false},
		{`count.index`, false},
	}
	for _, tt := range tests {
		expr, diags := hclsyntax.ParseExpression([]byte(tt.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tt.src, diags)
		}
		if got := constantExpr(expr); got != tt.want {
			t.Errorf("constantExpr(%s) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestPlainDecodeConstants: a body's constant arguments decode to what
// hcldec gives, in scope after scope, beside arguments that refer to each
// scope's values; a constant argument that fails its conversion is left to
// hcldec every time.
func TestPlainDecodeConstants(t *testing.T) {
	spec := hcldec.ObjectSpec{
		"input":            &hcldec.AttrSpec{Name: "input", Type: cty.DynamicPseudoType},
		"triggers_replace": &hcldec.AttrSpec{Name: "triggers_replace", Type: cty.DynamicPseudoType},
		"size":             &hcldec.AttrSpec{Name: "size", Type: cty.Number},
		"name":             &hcldec.AttrSpec{Name: "name", Type: cty.String},
	}
	src := `input = { value = "v1-0", refs = [] }
triggers_replace = "t1"
size = "42"
name = var.name
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	body := f.Body.(*hclsyntax.Body)
	p := newPlainDecode(body, spec)
	if p == nil {
		t.Fatal("no plain decode")
	}
	for _, name := range []string{"a", "b", "c"} {
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)})}}
		want, wantDiags := hcldec.Decode(body, spec, ctx)
		got, ok := p.decode(ctx)
		if !ok || wantDiags.HasErrors() {
			t.Fatalf("scope %s: decoded without hcldec: %v (hcldec's diagnostics: %v)", name, ok, wantDiags)
		}
		if !got.RawEquals(want) {
			t.Errorf("scope %s: plain decode = %#v, hcldec = %#v", name, got, want)
		}
	}

	bad := "size = \"many\"\n"
	f, diags = hclsyntax.ParseConfig([]byte(bad), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p = newPlainDecode(f.Body.(*hclsyntax.Body), spec)
	for range 2 {
		if _, ok := p.decode(&hcl.EvalContext{}); ok {
			t.Fatal("a constant that does not convert decoded without hcldec")
		}
	}
}

// TestEvalBlockReadsFilesAgain: an argument that calls a function is
// evaluated at every decoding, beside a literal one that is not: a file
// whose content changes between the plan's evaluation and the apply's is
// read again, so that the final plan's check sees the change.
func TestEvalBlockReadsFilesAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "content.txt")
	src := "content = file(\"content.txt\")\nkind = \"literal\"\n"
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	spec := hcldec.ObjectSpec{
		"content": &hcldec.AttrSpec{Name: "content", Type: cty.String},
		"kind":    &hcldec.AttrSpec{Name: "kind", Type: cty.String},
	}
	s := &Scope{Data: testData(), FileDir: dir}
	for _, content := range []string{"at plan", "at apply"} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, ds := s.EvalBlock(f.Body, spec)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		want := cty.ObjectVal(map[string]cty.Value{"content": cty.StringVal(content), "kind": cty.StringVal("literal")})
		if !got.RawEquals(want) {
			t.Errorf("with %q in the file: %#v, want %#v", content, got, want)
		}
	}
}
