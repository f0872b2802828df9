package instance

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// TestCheckFinalPlan: a final plan passes when every value known in the
// saved plan is the same in it, and otherwise fails naming the first value
// that differs; the quick check decides as the walk does.
func TestCheckFinalPlan(t *testing.T) {
	str := cty.StringVal
	unknown := cty.UnknownVal(cty.String)
	obj := func(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }
	saved := obj(map[string]cty.Value{
		"id":    unknown,
		"name":  str("a"),
		"input": obj(map[string]cty.Value{"value": str("v"), "refs": cty.TupleVal([]cty.Value{unknown, str("b")})}),
		"tags":  cty.MapVal(map[string]cty.Value{"k": str("x")}),
		"none":  cty.NullVal(cty.String),
	})
	final := func(change func(map[string]cty.Value)) cty.Value {
		attrs := map[string]cty.Value{
			"id":    str("id-1"),
			"name":  str("a"),
			"input": obj(map[string]cty.Value{"value": str("v"), "refs": cty.TupleVal([]cty.Value{str("r"), str("b")})}),
			"tags":  cty.MapVal(map[string]cty.Value{"k": str("x")}),
			"none":  cty.NullVal(cty.String),
		}
		if change != nil {
			change(attrs)
		}
		return obj(attrs)
	}
	tests := []struct {
		name    string
		saved   cty.Value
		final   cty.Value
		wantErr string // "" when the final plan passes
		// quickDecide: the values have no marks, and the quick check
		// decides as the walk does (with marks, it may only find more).
		quickDecide bool
	}{
		{"unknowns learned", saved, final(nil), "", true},
		{"still unknown", saved, final(func(a map[string]cty.Value) {
			a["input"] = cty.UnknownVal(a["input"].Type())
		}), "", true},
		{"a known value changed", saved, final(func(a map[string]cty.Value) { a["name"] = str("b") }),
			`planned value for name was cty.StringVal("a"), but now cty.StringVal("b")`, true},
		{"a nested value changed", saved, final(func(a map[string]cty.Value) {
			a["input"] = obj(map[string]cty.Value{"value": str("w"), "refs": cty.TupleVal([]cty.Value{str("r"), str("b")})})
		}), `planned value for input.value was cty.StringVal("v"), but now cty.StringVal("w")`, true},
		{"a known collection changed", saved, final(func(a map[string]cty.Value) {
			a["tags"] = cty.MapVal(map[string]cty.Value{"k": str("y")})
		}), "planned value for tags does not match the final plan", true},
		{"a partly known collection is not compared", saved, final(func(a map[string]cty.Value) {
			a["input"] = obj(map[string]cty.Value{"value": str("v"), "refs": cty.TupleVal([]cty.Value{str("r"), str("c")})})
		}), "", true},
		{"null became a value", saved, final(func(a map[string]cty.Value) { a["none"] = str("x") }),
			"planned value for none was cty.NullVal(cty.String), but now cty.StringVal(\"x\")", true},
		{"an object became null", saved, final(func(a map[string]cty.Value) { a["input"] = cty.NullVal(a["input"].Type()) }),
			"input.refs is missing from the final plan", true},
		{"an attribute is missing", saved, final(func(a map[string]cty.Value) { delete(a, "name") }),
			"name is missing from the final plan", true},
		{"an object became a map", saved, final(func(a map[string]cty.Value) {
			a["input"] = cty.MapVal(map[string]cty.Value{"value": str("v")})
		}), "input.refs is missing from the final plan", true},
		{"a sensitive value changed is not shown", saved.Mark(marks.Sensitive), final(func(a map[string]cty.Value) { a["name"] = str("b") }),
			"planned value for name was (sensitive value), but now (sensitive value)", false},
		{"marked in the saved plan only", saved.Mark(marks.Sensitive), final(nil), "", false},
		{"a nested value marked in the final plan only", saved, final(func(a map[string]cty.Value) { a["name"] = str("a").Mark(marks.Sensitive) }), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkFinalPlan(tt.saved, tt.final)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("final plan rejected: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("final plan accepted, want %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("error %q, want %q", err, tt.wantErr)
			}
			quick, walk := finalMatches(tt.saved, tt.final), finalPlanMismatch(tt.saved, tt.final) == nil
			if (tt.quickDecide && quick != walk) || (quick && !walk) {
				t.Errorf("quick check says %v, the walk %v", quick, walk)
			}
		})
	}
}
