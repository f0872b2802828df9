package lang

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestSensitiveFunctions(t *testing.T) {
	secret := cty.StringVal("x").Mark(Sensitive)
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "sensitive marks", src: `sensitive("x")`, want: secret},
		{name: "sensitive twice", src: `sensitive(sensitive("x"))`, want: secret},
		{name: "sensitive null", src: `sensitive(null)`, want: cty.NullVal(cty.DynamicPseudoType).Mark(Sensitive)},
		{name: "sensitive unknown", src: `sensitive(var.unknown)`, want: cty.UnknownVal(cty.String).Mark(Sensitive)},
		{name: "sensitive collection", src: `sensitive(["a"])`, want: cty.TupleVal([]cty.Value{cty.StringVal("a")}).Mark(Sensitive)},
		{name: "nonsensitive unmarks", src: `nonsensitive(sensitive("x"))`, want: cty.StringVal("x")},
		{name: "nonsensitive of plain value is no error", src: `nonsensitive("x")`, want: cty.StringVal("x")},
		{name: "nonsensitive unknown", src: `nonsensitive(sensitive(var.unknown))`, want: cty.UnknownVal(cty.String)},
		{name: "nonsensitive null", src: `nonsensitive(null)`, want: cty.NullVal(cty.DynamicPseudoType)},
		{name: "nonsensitive keeps nested marks", src: `nonsensitive([sensitive("a")])`, want: cty.TupleVal([]cty.Value{cty.StringVal("a").Mark(Sensitive)})},
		{name: "issensitive of marked", src: `issensitive(sensitive("x"))`, want: cty.True},
		{name: "issensitive of plain", src: `issensitive("x")`, want: cty.False},
		{name: "issensitive of number", src: `issensitive(1)`, want: cty.False},
		{name: "issensitive of unmarked", src: `issensitive(nonsensitive(sensitive("x")))`, want: cty.False},
		{name: "issensitive of unknown is known", src: `issensitive(var.unknown)`, want: cty.False},
		{name: "issensitive of sensitive unknown", src: `issensitive(sensitive(var.unknown))`, want: cty.True},
		{name: "issensitive of null", src: `issensitive(null)`, want: cty.False},
		{name: "issensitive looks at the value, not inside", src: `issensitive([sensitive("x")])`, want: cty.False},
		{name: "issensitive of derived value", src: `issensitive(upper(sensitive("x")))`, want: cty.True},
		{name: "upper propagates", src: `upper(sensitive("x"))`, want: cty.StringVal("X").Mark(Sensitive)},
		{name: "new function propagates", src: `base64gzip(sensitive(""))`, want: cty.StringVal("H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA==").Mark(Sensitive)},
		{name: "interpolation propagates", src: `"a-${sensitive("x")}"`, want: cty.StringVal("a-x").Mark(Sensitive)},
		{name: "length propagates", src: `length(sensitive("abc"))`, want: cty.NumberIntVal(3).Mark(Sensitive)},
	})
}

func TestSensitiveMark(t *testing.T) {
	// The UI recognizes the mark by its string form, as OpenTofu's.
	if got := cty.StringVal("x").Mark(Sensitive); !got.HasMark(Sensitive) {
		t.Fatal("mark not set")
	}
	for m := range cty.StringVal("x").Mark(Sensitive).Marks() {
		if s, ok := m.(Mark); !ok || string(s) != "sensitive" {
			t.Errorf("mark = %#v, want the string form \"sensitive\"", m)
		}
	}
}
