package diag

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestTraversalValues(t *testing.T) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(3)}),
		"local": cty.ObjectVal(map[string]cty.Value{
			"names": cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		}),
	}}
	tests := []struct {
		name, expr string
		want       []string // traversal=value, in order
	}{
		{"each reference once", `var.n > 1 && var.n < 5`, []string{"var.n=3"}},
		{"an element", `local.names[0] == "z"`, []string{`local.names[0]="a"`}},
		{"an index out of range gives the collection", `local.names[5] == "z" || var.n == 1`, []string{"local.names=2", "var.n=3"}},
		{"an attribute the object lacks gives the object", `var.m == 1`, []string{"var=1"}},
		{"an undeclared root is left out", `nothing.x == 1`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expr, ds := hclsyntax.ParseExpression([]byte(tt.expr), "t.tf", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			var got []string
			for _, v := range TraversalValues(expr, ctx) {
				s := v.Value.GoString()
				switch {
				case v.Value.Type().IsTupleType() || v.Value.Type().IsObjectType():
					s = string(rune('0' + v.Value.LengthInt()))
				case v.Value.Type() == cty.String:
					s = `"` + v.Value.AsString() + `"`
				case v.Value.Type() == cty.Number:
					s = v.Value.AsBigFloat().Text('f', -1)
				}
				got = append(got, v.Traversal+"="+s)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("TraversalValues(%s) = %v, want %v", tt.expr, got, tt.want)
			}
		})
	}
}
