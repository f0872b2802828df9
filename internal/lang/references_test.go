package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

func parseTraversal(t *testing.T, src string) hcl.Traversal {
	t.Helper()
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse %q: %s", src, diags)
	}
	return trav
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		src       string
		kind      RefKind
		str       string // Reference.String()
		name      string
		keyGiven  bool
		key       addrs.InstanceKey
		rangeEnd  int // end column of Range
		remaining int
	}{
		{src: "terraform_data.a", kind: ResourceRef, str: "terraform_data.a", rangeEnd: 17},
		{src: "terraform_data.a[0]", kind: ResourceRef, str: "terraform_data.a[0]", keyGiven: true, key: addrs.IntKey(0), rangeEnd: 20},
		{src: `terraform_data.a["k"].output`, kind: ResourceRef, str: `terraform_data.a["k"]`, keyGiven: true, key: addrs.StringKey("k"), rangeEnd: 22, remaining: 1},
		{src: "terraform_data.a.output.x", kind: ResourceRef, str: "terraform_data.a", rangeEnd: 17, remaining: 2},
		{src: "data.null_data_source.d.outputs", kind: ResourceRef, str: "data.null_data_source.d", rangeEnd: 24, remaining: 1},
		{src: "resource.terraform_data.a", kind: ResourceRef, str: "terraform_data.a", rangeEnd: 26},
		{src: "var.x", kind: InputVariable, str: "var.x", name: "x", rangeEnd: 6},
		{src: "var.x.y[0]", kind: InputVariable, str: "var.x", name: "x", rangeEnd: 6, remaining: 2},
		{src: "local.l", kind: LocalValue, str: "local.l", name: "l", rangeEnd: 8},
		{src: "count.index", kind: CountIndex, str: "count.index", rangeEnd: 12},
		{src: "each.key", kind: EachKey, str: "each.key", rangeEnd: 9},
		{src: "each.value.name", kind: EachValue, str: "each.value", rangeEnd: 11, remaining: 1},
		{src: "path.module", kind: PathModule, str: "path.module", rangeEnd: 12},
		{src: "path.root", kind: PathRoot, str: "path.root", rangeEnd: 10},
		{src: "path.cwd", kind: PathCwd, str: "path.cwd", rangeEnd: 9},
		{src: "terraform.workspace", kind: TerraformWorkspace, str: "terraform.workspace", rangeEnd: 20},
		{src: "tofu.workspace", kind: TerraformWorkspace, str: "tofu.workspace", rangeEnd: 15},
		{src: "tofu.applying", kind: TerraformApplying, str: "tofu.applying", rangeEnd: 14},
		{src: "self.id", kind: Self, str: "self", rangeEnd: 5, remaining: 1},
		{src: "module.m", kind: ModuleCallOutput, str: "module.m", name: "m", rangeEnd: 9},
		{src: "module.m[1].out.x", kind: ModuleCallOutput, str: "module.m[1].out", name: "m", keyGiven: true, key: addrs.IntKey(1), rangeEnd: 16, remaining: 1},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			ref, diags := ParseRef(parseTraversal(t, tt.src))
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %v", diags.Err())
			}
			if ref.Kind != tt.kind || ref.String() != tt.str || ref.Name != tt.name || ref.KeyGiven != tt.keyGiven || ref.Key != tt.key {
				t.Errorf("got %s %q name %q key %v/%v", ref.Kind, ref.String(), ref.Name, ref.Key, ref.KeyGiven)
			}
			if ref.Range.End.Column != tt.rangeEnd || ref.Range.Start.Column != 1 {
				t.Errorf("Range = %v, want columns 1-%d", ref.Range, tt.rangeEnd)
			}
			if len(ref.Remaining) != tt.remaining {
				t.Errorf("Remaining = %d steps, want %d", len(ref.Remaining), tt.remaining)
			}
		})
	}
}

func TestParseRefErrors(t *testing.T) {
	tests := []struct {
		src     string
		summary string
	}{
		{"var", "Invalid reference"},
		{`var["x"]`, "Invalid reference"},
		{"data.x", "Invalid reference"},
		{"resource.x", "Invalid reference"},
		{"terraform_data", "Invalid reference"},
		{`terraform_data["a"]`, "Invalid reference"},
		{"terraform_data.a[1.5]", "Invalid index key"},
		{"count.foo", `Invalid "count" attribute`},
		{"each.item", `Invalid "each" attribute`},
		{"path.modul", `Invalid "path" attribute`},
		{"terraform.env", `Invalid "terraform" attribute`},
		{"terraform.foo", `Invalid "terraform" attribute`},
		{"tofu.env", `Invalid "tofu" attribute`},
		{"tofu.foo", `Invalid "tofu" attribute`},
		{"template.x", "Reserved symbol name"},
		{"module.m[0][1]", "Invalid reference"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			ref, diags := ParseRef(parseTraversal(t, tt.src))
			if ref != nil || len(diags) != 1 || diags[0].Summary != tt.summary {
				t.Fatalf("got ref %v diags %v, want one %q", ref, diags, tt.summary)
			}
			if diags[0].Subject == nil || diags[0].Subject.Filename != "test.tf" {
				t.Errorf("diagnostic has no source range: %+v", diags[0])
			}
		})
	}
	if _, diags := ParseRef(parseTraversal(t, "path.modul")); diags[0].Detail != `The "path" object does not have an attribute named "modul". Did you mean "module"?` {
		t.Errorf("path suggestion detail = %q", diags[0].Detail)
	}
}

func TestReferencesInExpr(t *testing.T) {
	expr, diags := hclsyntax.ParseExpression([]byte(`"${var.a}-${terraform_data.b[count.index].output}" == [for x in local.l : x.id][0]`), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	refs, rdiags := ReferencesInExpr(expr)
	if rdiags.HasErrors() {
		t.Fatal(rdiags.Err())
	}
	var got []string
	for _, r := range refs {
		got = append(got, r.String())
	}
	want := []string{"var.a", "terraform_data.b", "count.index", "local.l"}
	if len(got) != len(want) {
		t.Fatalf("refs = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("refs = %v, want %v", got, want)
		}
	}
	if refs, _ := ReferencesInExpr(nil); refs != nil {
		t.Errorf("nil expression has references %v", refs)
	}
}

func TestReferencesInBodyDynamic(t *testing.T) {
	src := `
name = var.name
dynamic "rule" {
  for_each = local.rules
  iterator = r
  content {
    port = r.value.port
    cidr = var.cidr
  }
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
	refs, rdiags := ReferencesInBody(file.Body, spec)
	if rdiags.HasErrors() {
		t.Fatal(rdiags.Err())
	}
	got := map[string]bool{}
	for _, r := range refs {
		got[r.String()] = true
	}
	for _, want := range []string{"var.name", "local.rules", "var.cidr"} {
		if !got[want] {
			t.Errorf("missing reference %s in %v", want, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("references = %v, want exactly var.name, local.rules, var.cidr (not the iterator)", got)
	}
}

func TestRefKindString(t *testing.T) {
	for k := InvalidRef; k <= ModuleCallOutput; k++ {
		if k.String() == "" || (k != InvalidRef && k.String() == "InvalidRef") {
			t.Errorf("RefKind(%d).String() = %q", k, k.String())
		}
	}
}
