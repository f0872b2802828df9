package lang

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestFunctionsNullArguments lists, function by function, the null
// arguments OpenTofu 1.12 accepts and the results it gives for them
// (compared call by call with OpenTofu's function table).
func TestFunctionsNullArguments(t *testing.T) {
	s := &Scope{Data: testData(), FileDir: t.TempDir()}
	str := cty.StringVal
	null := cty.NullVal(cty.DynamicPseudoType)
	obj := func(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }
	tests := []struct {
		fn   string
		src  string
		want cty.Value
	}{
		{"lookup", `lookup({a = 1}, "b", null)`, null},
		{"lookup", `lookup({a = 1}, "a", null)`, cty.NumberIntVal(1)},
		{"lookup", `lookup(tomap({a = "x"}), "b", null)`, cty.NullVal(cty.String)},
		{"lookup", `lookup(tomap({a = "x"}), "a", null)`, str("x")},
		{"lookup", `lookup({}, "a", null)`, null},
		{"lookup", `lookup({a = null}, "a", 1)`, null},
		{"lookup", `lookup({a = 1}, "a")`, cty.NumberIntVal(1)},
		{"lookup", `lookup({a = 1}, "b", sensitive(null))`, null.Mark(Sensitive)},
		{"lookup", `lookup(sensitive({a = 1}), "b", null)`, null.Mark(Sensitive)},
		// Inside try() a null default is a result, not an error that
		// silently takes the fallback.
		{"try", `try(lookup({a = 1}, "b", null), "fallback")`, null},
		{"try", `try(lookup(tomap({a = 1}), "b", null), 5)`, cty.NullVal(cty.Number)},
		{"can", `can(lookup({a = 1}, "b", null))`, cty.True},
		{"coalesce", `coalesce(null, "a")`, str("a")},
		{"coalesce", `coalesce("", null, "x")`, str("x")},
		{"format", `format("%v", null)`, str("null")},
		{"format", `format("%#v", null)`, str("null")},
		{"merge", `merge(null, {a = 1})`, obj(map[string]cty.Value{"a": cty.NumberIntVal(1)})},
		{"merge", `merge(null, null)`, cty.EmptyObjectVal},
		{"jsonencode", `jsonencode(null)`, str("null")},
		{"jsonencode", `jsonencode({a = null})`, str(`{"a":null}`)},
		{"yamlencode", `yamlencode(null)`, str("null\n...\n")},
		{"tostring", `tostring(null)`, cty.NullVal(cty.String)},
		{"tonumber", `tonumber(null)`, cty.NullVal(cty.Number)},
		{"tobool", `tobool(null)`, cty.NullVal(cty.Bool)},
		{"tolist", `tolist(null)`, cty.NullVal(cty.List(cty.DynamicPseudoType))},
		{"toset", `toset(null)`, cty.NullVal(cty.Set(cty.DynamicPseudoType))},
		{"tomap", `tomap(null)`, cty.NullVal(cty.Map(cty.DynamicPseudoType))},
		{"sensitive", `sensitive(null)`, null.Mark(Sensitive)},
		{"nonsensitive", `nonsensitive(null)`, null},
		{"issensitive", `issensitive(null)`, cty.False},
		{"ephemeralasnull", `ephemeralasnull(null)`, null},
		{"ephemeralasnull", `ephemeralasnull("a")`, str("a")},
		{"type", `type(null)`, str("any")},
		// Null elements of collections.
		{"compact", `compact(["a", null, ""])`, cty.ListVal([]cty.Value{str("a")})},
		{"distinct", `distinct(["a", null, null])`, cty.ListVal([]cty.Value{str("a"), cty.NullVal(cty.String)})},
		{"length", `length([null])`, cty.NumberIntVal(1)},
		{"one", `one([null])`, null},
		{"keys", `keys({a = null})`, cty.TupleVal([]cty.Value{str("a")})},
		{"zipmap", `zipmap(["a"], [null])`, obj(map[string]cty.Value{"a": null})},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %v", diags.Err())
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("%s: got %#v\nwant %#v", tt.fn, got, tt.want)
			}
		})
	}
}

// TestFunctionsRefuseNull lists null arguments OpenTofu 1.12 refuses, with
// its messages.
func TestFunctionsRefuseNull(t *testing.T) {
	s := &Scope{Data: testData(), FileDir: t.TempDir()}
	tests := []struct {
		src, summary, detail string
	}{
		{`contains(["a"], null)`, "Invalid function argument", `Invalid value for "value" parameter: argument must not be null.`},
		{`lookup(null, "a")`, "Invalid function argument", `Invalid value for "inputMap" parameter: argument must not be null.`},
		{`lookup({a = 1}, null)`, "Invalid function argument", `Invalid value for "key" parameter: argument must not be null.`},
		{`lookup({a = 1}, "b")`, "Invalid function argument", `Invalid value for "inputMap" parameter: the given object has no attribute "b".`},
		{`lookup(tomap({a = 1}), sensitive("b"))`, "Error in function call", `Call to function "lookup" failed: lookup failed to find key (sensitive value).`},
		{`lookup({a = 1}, "a", 2, 3)`, "Error in function call", `Call to function "lookup" failed: lookup() takes two or three arguments, got 4.`},
		{`transpose({a = [null]})`, "Invalid function argument", `Invalid value for "values" parameter: cannot use null string for ["a"][0].`},
		{`transpose({a = null})`, "Invalid function argument", `Invalid value for "values" parameter: cannot use null list for ["a"].`},
		{`abspath(null)`, "Invalid function argument", `Invalid value for "path" parameter: argument must not be null.`},
		{`basename(null)`, "Invalid function argument", `Invalid value for "path" parameter: argument must not be null.`},
		{`dirname(null)`, "Invalid function argument", `Invalid value for "path" parameter: argument must not be null.`},
		{`pathexpand(null)`, "Invalid function argument", `Invalid value for "path" parameter: argument must not be null.`},
		{`coalescelist(null, ["a"])`, "Error in function call", `Call to function "coalescelist" failed: coalescelist arguments must be lists or tuples.`},
		{`format("%s", null)`, "Error in function call", `Call to function "format" failed: unsupported value for "%s" at 0: null value cannot be formatted.`},
		{`formatlist("%s", ["a", null])`, "Error in function call", `Call to function "formatlist" failed: error on format iteration 1: unsupported value for "%s" at 0: null value cannot be formatted.`},
		{`join(",", ["a", null])`, "Invalid function argument", `Invalid value for "lists" parameter: element 1 is null; cannot concatenate null values.`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if len(diags) == 0 || diags[0].Summary != tt.summary || diags[0].Detail != tt.detail {
				t.Fatalf("diagnostics = %v, want %q: %q", diags, tt.summary, tt.detail)
			}
		})
	}
}

// TestFunctionsNullableParameters is the list of parameters that accept
// null, parameter by parameter ("*" for the variadic one): OpenTofu 1.12's
// list, plus type(), which OpenTofu offers only in its console, and
// convert's value (Terraform 1.15).
func TestFunctionsNullableParameters(t *testing.T) {
	want := []string{
		"coalesce *", "coalescelist *", "convert 0", "ephemeralasnull 0", "format *", "formatlist *",
		"issensitive 0", "jsonencode 0", "list *", "lookup *", "map *", "merge *",
		"nonsensitive 0", "sensitive 0", "tobool 0", "tolist 0", "tomap 0", "tonumber 0",
		"toset 0", "tostring 0", "type 0", "yamlencode 0",
	}
	var got []string
	for name, fn := range Functions(".") {
		if strings.HasPrefix(name, coreNamespace) {
			continue
		}
		for i, p := range fn.Params() {
			if p.AllowNull {
				got = append(got, name+" "+string(rune('0'+i)))
			}
		}
		if p := fn.VarParam(); p != nil && p.AllowNull {
			got = append(got, name+" *")
		}
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameters accepting null (-want +got):\n%s", diff)
	}
}
