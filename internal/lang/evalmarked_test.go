package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
)

// TestEvalBlockMarkedTellsMarks: EvalBlockMarked reports whether the value
// it returns carries any mark, as marks.Any would: a sensitive input does,
// a deprecated one no longer does once its warning is taken out.
func TestEvalBlockMarkedTellsMarks(t *testing.T) {
	d := testData()
	d.vars["secret"] = cty.StringVal("s").Mark(marks.Sensitive)
	d.vars["old"] = MarkDeprecated(cty.StringVal("o"), "var.old", "", false)
	spec := hcldec.ObjectSpec{"a": &hcldec.AttrSpec{Name: "a", Type: cty.DynamicPseudoType}}
	for _, tt := range []struct {
		src              string
		marked, warnings bool
	}{
		{`a = { x = var.name, y = [var.n] }`, false, false},
		{`a = { x = var.name, y = [var.secret] }`, true, false},
		{`a = var.old`, false, true},
		{`a = [var.old, var.secret]`, true, true},
	} {
		f, ds := hclsyntax.ParseConfig([]byte(tt.src), "t.tf", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		s := &Scope{Data: d}
		val, marked, diags := s.EvalBlockMarked(f.Body, spec)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", tt.src, diags.Err())
		}
		if marked != tt.marked || marked != marks.Any(val) {
			t.Errorf("%s: marked = %v, want %v (marks.Any: %v)", tt.src, marked, tt.marked, marks.Any(val))
		}
		if got := len(diags) > 0; got != tt.warnings {
			t.Errorf("%s: warnings %v, want %v", tt.src, diags, tt.warnings)
		}
		plain, more := s.EvalBlock(f.Body, spec)
		if !plain.RawEquals(val) || len(more) != len(diags) {
			t.Errorf("%s: EvalBlock gives %#v %v, EvalBlockMarked %#v %v", tt.src, plain, more, val, diags)
		}
	}
}
