package plan

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
)

// terraform_data's unknown output loses the sensitive mark echoed from
// its input, for views, unless the prior output was sensitive; a known
// output, and any other resource type, keep theirs.
func TestWithoutUnknownEcho(t *testing.T) {
	obj := func(output cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("x").Mark(marks.Sensitive), "output": output})
	}
	unknown := obj(cty.UnknownVal(cty.String).Mark(marks.Sensitive))
	known := obj(cty.StringVal("x").Mark(marks.Sensitive))
	builtin := addrs.NewBuiltInProvider("terraform")
	tests := []struct {
		name          string
		p             addrs.Provider
		typ           string
		before, after cty.Value
		wantMarked    bool
	}{
		{"create", builtin, "terraform_data", cty.NilVal, unknown, false},
		{"update of a sensitive output", builtin, "terraform_data", known, unknown, true},
		{"known output", builtin, "terraform_data", cty.NilVal, known, true},
		{"another type", addrs.NewDefaultProvider("test"), "terraform_data", cty.NilVal, unknown, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithoutUnknownEcho(tt.p, tt.typ, tt.before, tt.after)
			if m := got.GetAttr("output").IsMarked(); m != tt.wantMarked {
				t.Errorf("output marked %v, want %v", m, tt.wantMarked)
			}
			if !got.GetAttr("input").IsMarked() {
				t.Error("input lost its mark")
			}
		})
	}
}
