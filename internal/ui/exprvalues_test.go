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
		{"unknown string", cty.UnknownVal(cty.String), false, "is a string"},
		{"unknown list", cty.UnknownVal(cty.List(cty.String)), false, "is a list of string"},
		{"unknown anything", cty.DynamicVal, false, ""},
		{"empty list", cty.ListValEmpty(cty.String), false, "is empty list of string"},
		{"tuple", cty.TupleVal([]cty.Value{cty.True, cty.StringVal("a")}), false, "is tuple with 2 elements"},
		{"map of one", cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x")}), false, "is map of string with 1 element"},
		{"object of one", cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")}), false, `is object with 1 attribute "id"`},
		{"object", cty.ObjectVal(map[string]cty.Value{"a": cty.True, "b": cty.True}), false, "is object with 2 attributes"},
		{"sensitive", secret, false, ""},
		{"sensitive unknown", cty.UnknownVal(cty.String).Mark("sensitive"), false, ""},
		{"sensitive shown", secret, true, `is "hunter2"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := exprStatements([]diag.ExprValue{{Traversal: "var.x", Value: tc.value}}, tc.showSensitive, false, false)
			if tc.want == "" {
				if len(got) != 0 {
					t.Errorf("got %+v, want nothing said of var.x", got)
				}
				return
			}
			if len(got) != 1 || got[0].Statement != tc.want {
				t.Errorf("got %+v, want %q", got, tc.want)
			}
		})
	}
}

// A failed condition shows the values of its references under its source
// line, sorted, the sensitive ones left out; its JSON snippet lists them.
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

bad
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	js, err := MarshalValidateJSON(diag.Diagnostics{d}, sources)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"values":[{"traversal":"output.o","statement":"is \"bye\""}]`) {
		t.Errorf("JSON values missing:\n%s", js)
	}
	if strings.Contains(buf.String()+string(js), "s3cret") || strings.Contains(buf.String(), "var.want has") || strings.Contains(string(js), `"traversal":"var.want"`) {
		t.Error("a sensitive value was shown")
	}
}

// A failed equality shows its two sides as a diff, the left before the
// right, as OpenTofu 1.12 does: a sensitive side hides the whole diff in
// text and is written as null in JSON (with its sensitive flag).
func TestDiagnosticExpressionDifference(t *testing.T) {
	src := "check \"k\" {\n  assert {\n    condition = local.o == var.want\n  }\n}\n"
	at := strings.Index(src, "local.o")
	rng := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3, Column: 17, Byte: at}, End: hcl.Pos{Line: 3, Column: 35, Byte: at + 18}}
	sources := map[string][]byte{"main.tf": []byte(src)}
	obj := func(a int64, c ...int64) cty.Value {
		var cs []cty.Value
		for _, n := range c {
			cs = append(cs, cty.NumberIntVal(n))
		}
		return cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(a), "b": cty.StringVal("x"), "c": cty.TupleVal(cs)})
	}
	tests := []struct {
		name        string
		left, right cty.Value
		text, json  string
	}{
		{
			name: "strings", left: cty.StringVal("xbc"), right: cty.StringVal("abd"),
			text: "    │ Diff: \n    │     \"xbc\" -> \"abd\"\n",
			json: `"difference":{"before":"xbc","after":"abd","after_unknown":false,"before_sensitive":false,"after_sensitive":false}`,
		},
		{
			name: "objects", left: obj(1, 1, 2), right: obj(2, 1, 3),
			text: "    │ Diff: \n    │     {\n    │       ~ a = 1 -> 2\n    │       ~ c = [\n    │             1,\n    │           - 2,\n    │           + 3,\n    │         ]\n    │         # (1 unchanged attribute hidden)\n    │     }\n",
			json: `"difference":{"before":{"a":1,"b":"x","c":[1,2]},"after":{"a":2,"b":"x","c":[1,3]},"after_unknown":false,"before_sensitive":{"c":[false,false]},"after_sensitive":{"c":[false,false]}}`,
		},
		{
			name: "unknown right side", left: cty.NumberIntVal(1), right: cty.UnknownVal(cty.Number),
			text: "    │ Diff: \n    │     1 -> (known after apply)\n",
			json: `"difference":{"before":1,"after_unknown":true,"before_sensitive":false,"after_sensitive":false}`,
		},
		{
			name: "sensitive left side", left: cty.StringVal("hunter2").Mark("sensitive"), right: cty.StringVal("x"),
			text: "    │ Diff: \n    │     (sensitive value)\n",
			json: `"difference":{"before":null,"after":"x","after_unknown":false,"before_sensitive":true,"after_sensitive":false}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diag.WarningAt(rng, "Check block assertion failed", "bad")
			d.Difference = &diag.ExprDifference{Left: tt.left, Right: tt.right}
			var buf bytes.Buffer
			if err := RenderDiagnosticsPlain(&buf, diag.Diagnostics{d}, sources, RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "    ├────────────────\n"+tt.text+"\nbad\n") {
				t.Errorf("text:\n%s\nwant the diff\n%s", buf.String(), tt.text)
			}
			js, err := MarshalValidateJSON(diag.Diagnostics{d}, sources)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(js), tt.json) {
				t.Errorf("JSON:\n%s\nwant %s", js, tt.json)
			}
			if strings.Contains(buf.String()+string(js), "hunter2") {
				t.Error("a sensitive value was shown")
			}
		})
	}
}
