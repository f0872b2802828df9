package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
)

func TestExprStatements(t *testing.T) {
	secret := cty.StringVal("hunter2").Mark("sensitive")
	cases := []struct {
		name          string
		value         cty.Value
		showSensitive bool
		want          string
	}{
		{"string", cty.StringVal("bye"), false, `is "bye"`},
		{"number", cty.NumberIntVal(42), false, "is 42"},
		{"fraction", cty.NumberFloatVal(1.5), false, "is 1.5"},
		{"bool", cty.False, false, "is false"},
		{"null", cty.NullVal(cty.String), false, "is null"},
		{"unknown string", cty.UnknownVal(cty.String), false, "is a string, known only after apply"},
		{"unknown anything", cty.DynamicVal, false, "will be known only after apply"},
		{"empty list", cty.ListValEmpty(cty.String), false, "is empty list of string"},
		{"tuple", cty.TupleVal([]cty.Value{cty.True, cty.StringVal("a")}), false, "is tuple with 2 elements"},
		{"map of one", cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x")}), false, "is map of string with 1 element"},
		{"object of one", cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")}), false, `is object with 1 attribute "id"`},
		{"object", cty.ObjectVal(map[string]cty.Value{"a": cty.True, "b": cty.True}), false, "is object with 2 attributes"},
		{"sensitive", secret, false, "has a sensitive value"},
		{"sensitive shown", secret, true, `is "hunter2"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := exprStatements([]diag.ExprValue{{Traversal: "var.x", Value: tc.value}}, tc.showSensitive)
			if len(got) != 1 || got[0].Statement != tc.want {
				t.Errorf("got %+v, want %q", got, tc.want)
			}
		})
	}
}

// A failed condition shows the values of its references under its source
// line, sorted, the sensitive ones hidden; its JSON snippet lists them.
func TestDiagnosticExpressionValues(t *testing.T) {
	src := "run \"two\" {\n  assert {\n    condition = output.o == var.want\n  }\n}\n"
	at := strings.Index(src, "output.o")
	rng := hcl.Range{Filename: "a.tftest.hcl", Start: hcl.Pos{Line: 3, Column: 17, Byte: at}, End: hcl.Pos{Line: 3, Column: 37, Byte: at + 20}}
	d := diag.At(rng, "Test assertion failed", "bad")
	d.Values = []diag.ExprValue{{Traversal: "var.want", Value: cty.StringVal("s3cret").Mark("sensitive")}, {Traversal: "output.o", Value: cty.StringVal("bye")}}
	sources := map[string][]byte{"a.tftest.hcl": []byte(src)}
	var buf bytes.Buffer
	if err := RenderDiagnosticsPlain(&buf, diag.Diagnostics{d}, sources, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `
Error: Test assertion failed

  on a.tftest.hcl line 3, in run "two":
   3:     condition = output.o == var.want
    ├────────────────
    │ output.o is "bye"
    │ var.want has a sensitive value

bad
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	js, err := MarshalValidateJSON(diag.Diagnostics{d}, sources)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"values":[{"traversal":"output.o","statement":"is \"bye\""},{"traversal":"var.want","statement":"has a sensitive value"}]`) {
		t.Errorf("JSON values missing:\n%s", js)
	}
	if strings.Contains(buf.String()+string(js), "s3cret") {
		t.Error("a sensitive value was shown")
	}
}
