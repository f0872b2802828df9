package ui

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
)

// The values under a diagnostic's source line leave sensitive and
// ephemeral values out, unless the diagnostic is about them (an error
// message that refers to them), which says that each has one, never what
// it is, as OpenTofu does; a diff with an ephemeral side is not shown.
func TestConfidentialExpressionValues(t *testing.T) {
	src := []byte(`error_message = "${var.pw} ${var.tok} ${var.name}"` + "\n")
	rng := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 1, Column: 17, Byte: 16}, End: hcl.Pos{Line: 1, Column: 51, Byte: 50}}
	values := []diag.ExprValue{
		{Traversal: "var.pw", Value: cty.StringVal("hunter2").Mark(marks.Sensitive)},
		{Traversal: "var.tok", Value: marks.MarkEphemeral(cty.StringVal("tok-5d1f"))},
		{Traversal: "var.name", Value: cty.StringVal("web")},
	}
	tests := []struct {
		name         string
		confidential bool
		want, not    []string
	}{
		{"about the secrets", true, []string{`var.pw has a sensitive value`, `var.tok has an ephemeral value`, `var.name is "web"`}, nil},
		{"about something else", false, []string{`var.name is "web"`}, []string{"var.pw", "var.tok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diag.At(rng, "Error message refers to sensitive values", "Detail.")
			d.Values, d.ConfidentialCause = values, tt.confidential
			d.Difference = &diag.ExprDifference{Left: marks.MarkEphemeral(cty.StringVal("tok-5d1f")), Right: cty.StringVal("x")}
			var b strings.Builder
			if err := RenderDiagnosticsPlain(&b, diag.Diagnostics{d}, map[string][]byte{"main.tf": src}, RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in:\n%s", w, out)
				}
			}
			for _, n := range append(tt.not, "hunter2", "tok-5d1f", "Diff") {
				if strings.Contains(out, n+" ") || strings.Contains(out, n+"\n") || strings.Contains(out, n+":") {
					t.Errorf("%q shown in:\n%s", n, out)
				}
			}
		})
	}
}
