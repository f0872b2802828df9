package hclfmt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSource checks the rewrites fmt makes beyond layout; the corpus of
// internal/command/testdata/fmt checks whole files against terraform fmt.
func TestSource(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"layout", "a=1\nbbb  =  2\n", "a   = 1\nbbb = 2\n"},
		{"bare labels", "resource x y {}\n", "resource \"x\" \"y\" {}\n"},
		{"interpolation only", "a = \"${var.x}\"\n", "a = var.x\n"},
		{"strip markers", "a = \"${~ var.x ~}\"\n", "a = var.x\n"},
		{"nested template", "a = \"${f(\"${var.x}\")}\"\n", "a = f(\"${var.x}\")\n"},
		{"two interpolations", "a = \"${var.x}${var.y}\"\n", "a = \"${var.x}${var.y}\"\n"},
		{"interpolation and text", "a = \"${var.x}-y\"\n", "a = \"${var.x}-y\"\n"},
		{"inside an object", "a = { b = \"${var.x}\" }\n", "a = { b = \"${var.x}\" }\n"},
		{"line breaks around", "a = \"${\n  var.x\n}\"\n", "a = var.x\n"},
		{"line breaks inside", "a = \"${f(\n1)}\"\n", "a = (f(\n1))\n"},
		{"in a nested block", "b {\nc {\na = \"${var.x}\"\n}\n}\n", "b {\n  c {\n    a = var.x\n  }\n}\n"},
		{"legacy types", "variable \"a\" {\ntype = \"list\"\n}\nvariable \"b\" {\ntype = \"map\"\n}\nvariable \"c\" {\ntype = \"string\"\n}\n",
			"variable \"a\" {\n  type = list(string)\n}\nvariable \"b\" {\n  type = map(string)\n}\nvariable \"c\" {\n  type = string\n}\n"},
		{"type outside a variable", "resource \"a\" \"b\" {\ntype = \"string\"\n}\n", "resource \"a\" \"b\" {\n  type = \"string\"\n}\n"},
		{"other quoted type", "variable \"a\" {\ntype = \"number\"\n}\n", "variable \"a\" {\n  type = \"number\"\n}\n"},
		{"crlf kept", "a=1\r\n", "a = 1\r\n"},
		{"no final newline added", "a=1", "a = 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ds := Source([]byte(tt.src), "x.tf")
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSourceSyntaxError(t *testing.T) {
	got, ds := Source([]byte("a = {\n"), "x.tf")
	if got != nil || !ds.HasErrors() || ds[0].Summary != "Missing expression" {
		t.Errorf("got %q, %v; want no result and a Missing expression error", got, ds)
	}
}

func FuzzSource(f *testing.F) {
	f.Add("resource x y {\na = \"${var.b}\"\n}\n")
	f.Add("variable \"v\" {\ntype = \"map\"\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		out, ds := Source([]byte(src), "x.tf")
		if ds.HasErrors() {
			return
		}
		// Formatting is idempotent.
		again, ds := Source(out, "x.tf")
		if ds.HasErrors() || string(again) != string(out) {
			t.Errorf("formatting %q again: %q, %v", out, again, ds)
		}
	})
}
