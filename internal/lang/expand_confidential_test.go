package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
)

// A for_each refused for a sensitive or ephemeral value names, under its
// source line, the values that have one, as OpenTofu's diagnostic does;
// an ephemeral enabled is refused in OpenTofu's words.
func TestConfidentialRepetitionArguments(t *testing.T) {
	d := expandData()
	d.vars["eph"] = cty.StringVal("hunter2-eph").Mark(marks.Ephemeral)
	s := &Scope{Data: d}
	tests := []struct {
		src, detail  string
		confidential bool
		values       string // the traversals named, joined by ","
	}{
		{`toset([var.eph])`, "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments.", true, "var.eph"},
		{`var.secret`, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments.", true, "var.secret"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, ds := EvalForEach(s, parseExpr(t, tt.src))
			if len(ds) != 1 || !strings.Contains(ds[0].Detail, tt.detail) {
				t.Fatalf("diagnostics %v, want one containing %q", ds, tt.detail)
			}
			var names []string
			for _, v := range ds[0].Values {
				names = append(names, v.Traversal)
			}
			if ds[0].ConfidentialCause != tt.confidential || strings.Join(names, ",") != tt.values {
				t.Errorf("confidential cause %v, values %v; want %v, %s", ds[0].ConfidentialCause, names, tt.confidential, tt.values)
			}
		})
	}

	_, ds := EvalEnabled(s, parseExpr(t, `var.eph == "x"`))
	want := `The given "enabled" argument value is unsuitable: the given value is ephemeral.`
	if len(ds) != 1 || ds[0].Summary != "Invalid enabled argument" || ds[0].Detail != want {
		t.Errorf("enabled from an ephemeral value: %v, want Invalid enabled argument: %s", ds, want)
	}
}
