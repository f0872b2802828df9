package lang

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestSharedContextEvaluatesAsItsOwn: bodies evaluated in one context
// holding every reference they make decode to the values, and report the
// diagnostics, that they do in contexts of their own; references that
// depend on the instance, or whose reading reports a problem, get no
// shared context.
func TestSharedContextEvaluatesAsItsOwn(t *testing.T) {
	spec := hcldec.ObjectSpec{
		"a": &hcldec.AttrSpec{Name: "a", Type: cty.DynamicPseudoType},
		"n": &hcldec.AttrSpec{Name: "n", Type: cty.Number},
	}
	srcs := []string{
		`a = { x = var.name, y = [terraform_data.single.id, local.tags["env"]] }`,
		`a = upper(var.name)
n = var.n`,
		`a = module.child.out`,
		`n = var.name`,                      // a conversion error
		`a = terraform_data.single.missing`, // an unsupported attribute
		`a = [for s in var.list : "${s}-${path.module}"]`,
	}
	var bodies []*hclsyntax.Body
	var union []*Reference
	for _, src := range srcs {
		f, ds := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		body := f.Body.(*hclsyntax.Body)
		bodies = append(bodies, body)
		refs, _ := CachedReferencesInBody(body, spec)
		union = append(union, refs...)
	}
	s := &Scope{Data: testData(), ModuleDir: "mod"}
	shared := s.NewSharedContext(union)
	if shared == nil {
		t.Fatal("no shared context for references without problems")
	}
	withShared := *s
	withShared.Shared = shared
	for i, body := range bodies {
		want, wantDiags := s.EvalBlock(body, spec)
		got, gotDiags := withShared.EvalBlock(body, spec)
		if !got.RawEquals(want) {
			t.Errorf("%q: shared context gives %#v, own context %#v", srcs[i], got, want)
		}
		if g, w := fmt.Sprint(gotDiags), fmt.Sprint(wantDiags); g != w {
			t.Errorf("%q: shared context reports %s, own context %s", srcs[i], g, w)
		}
	}
	for _, src := range []string{`a = count.index`, `a = each.key`, `a = self.id`, `a = var.undeclared`} {
		f, _ := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		refs, _ := CachedReferencesInBody(f.Body, spec)
		if s.NewSharedContext(append(refs, union...)) != nil {
			t.Errorf("%q: a shared context for a reference that depends on the instance or reports a problem", src)
		}
	}
}
