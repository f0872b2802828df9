package lang

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestTemplateString(t *testing.T) {
	str := cty.StringVal
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "static", src: `templatestring("Hello, Jodie!", {})`, want: str("Hello, Jodie!")},
		{name: "variable", src: `templatestring("Hello, $${name}!", {name = "Alice"})`, want: str("Hello, Alice!")},
		{name: "function", src: `templatestring("$${join(\", \", list)}", {list = ["a", "b"]})`, want: str("a, b")},
		{name: "core:: function", src: `templatestring("$${core::upper(x)}", {x = "a"})`, want: str("A")},
		{name: "directive", src: `templatestring("%%{ for k, v in m ~}$${k}=$${v} %%{ endfor ~}", {m = {a = 1, b = 2}})`, want: str("a=1 b=2 ")},
		{name: "single interpolation keeps the type", src: `templatestring("$${n}", {n = 3})`, want: cty.NumberIntVal(3)},
		// As in OpenTofu, the template may be any string expression.
		{name: "computed template", src: `templatestring(join("", ["$", "{x}"]), {x = "y"})`, want: str("y")},
		{name: "template from a reference", src: `templatestring(var.name, {})`, want: str("web")},
		{name: "map vars", src: `templatestring("$${a}", tomap({a = "b"}))`, want: str("b")},
		{name: "nested", src: `templatestring("$${templatestring(t, {})}", {t = "in"})`, want: str("in")},
		{name: "unknown template", src: `templatestring(var.unknown, {})`, want: cty.DynamicVal},
		{name: "unknown variable", src: `templatestring("$${x}", {x = var.unknown})`, want: cty.UnknownVal(cty.String)},
		{name: "sensitive template", src: `templatestring(sensitive("a"), {})`, want: str("a").Mark(Sensitive)},
		{name: "sensitive vars", src: `templatestring("a", sensitive({}))`, want: str("a").Mark(Sensitive)},
		{name: "sensitive variable used", src: `templatestring("$${x}!", {x = sensitive("a")})`, want: str("a!").Mark(Sensitive)},
		{name: "sensitive variable unused", src: `templatestring("$${x}!", {x = "a", y = sensitive("b")})`, want: str("a!")},
		{name: "missing variable", src: `templatestring("a $${b}", {})`, summary: argErr,
			detail: `Invalid value for "vars" parameter: vars map does not contain key "b".`},
		{name: "vars not a map", src: `templatestring("a", "b")`, summary: argErr,
			detail: `Invalid value for "vars" parameter: invalid vars value: must be a map.`},
		{name: "bad variable name", src: `templatestring("a", {"1x" = 1})`, summary: argErr,
			detail: `Invalid value for "vars" parameter: invalid template variable name "1x": must start with a letter, followed by zero or more letters, digits, and underscores.`},
		{name: "null template", src: `templatestring(null, {})`, summary: argErr, detail: `Invalid value for "data" parameter: argument must not be null.`},
		{name: "null vars", src: `templatestring("a", null)`, summary: argErr, detail: `Invalid value for "vars" parameter: argument must not be null.`},
	})
}
