package ctyjson

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// unmarshalCase is one input for one type. fast says that the fast path
// decodes it itself; every other input (errors above all) must be left to
// go-cty.
type unmarshalCase struct {
	name string
	json string
	fast bool
}

// unmarshalCases lists inputs by type: every type shape, nulls and empty
// collections, escapes, numbers, dynamic values and errors.
var unmarshalCases = []struct {
	ty    cty.Type
	cases []unmarshalCase
}{
	{cty.String, []unmarshalCase{
		{"plain", `"hello"`, true},
		{"empty", `""`, true},
		{"null", `null`, true},
		{"white space around", " \t\r\n\"a\" \n", true},
		{"simple escapes", `"q\" b\\ s\/ \b\f\n\r\t"`, true},
		{"unicode escape", `"caf\u00e9 \u00E9"`, true},
		{"escaped NUL", `"a\u0000b"`, true},
		{"surrogate pair", `"\ud83d\ude00"`, true},
		{"lone high surrogate", `"\ud800x"`, true},
		{"high surrogate then non-low", `"\ud800\u0041"`, true},
		{"two high surrogates", `"\ud800\ud800\udc00"`, true},
		{"lone low surrogate", `"\udc00"`, true},
		{"high surrogate at end", `"\ud83d"`, true},
		{"raw UTF-8", `"héllo, 世界 😀"`, true},
		{"invalid UTF-8", "\"a\xffb\xc3\"", true},
		{"UTF-8-encoded surrogate", "\"\xed\xa0\x80\"", true},
		{"NFC normalization", "\"e\u0301 e\\u0301\"", true},
		{"number as string", `-12.50e+3`, true},
		{"true as string", `true`, true},
		{"false as string", `false`, true},
		{"object", `{}`, false},
		{"array", `["a"]`, false},
		{"unterminated", `"abc`, false},
		{"control character", "\"a\nb\"", false},
		{"bad escape", `"\x"`, false},
		{"single-quote escape", `"\'"`, false},
		{"short unicode escape", `"\u12"`, false},
		{"non-hex unicode escape", `"\u12g4"`, false},
		{"empty input", ``, false},
		{"only white space", `  `, false},
		{"trailing data", `"a" "b"`, false},
		{"trailing garbage", `"a"x`, false},
		{"bad literal", `nul`, false},
		{"capitalized literal", `True`, false},
		{"stray comma", `,`, false},
		{"stray bracket", `]`, false},
	}},
	{cty.Number, []unmarshalCase{
		{"zero", `0`, true},
		{"negative zero", `-0`, true},
		{"negative zero decimal", `-0.0`, true},
		{"integer", `42`, true},
		{"negative", `-17`, true},
		{"big integer", `123456789012345678901234567890123456789`, true},
		{"decimal", `3.14159`, true},
		{"recurring binary fraction", `0.1`, true},
		{"exponent", `1e10`, true},
		{"capital exponent", `1E+2`, true},
		{"negative exponent", `-2.5e-3`, true},
		{"huge exponent", `1e400`, true},
		{"tiny", `1e-400`, true},
		{"long mantissa", `0.` + strings.Repeat("3", 200), true},
		{"string", `"42"`, true},
		{"string with exponent", `"1.5e3"`, true},
		{"string infinity", `"Inf"`, true},
		{"null", `null`, true},
		{"non-numeric string", `"abc"`, false},
		{"string with space", `" 1"`, false},
		{"bool", `true`, false},
		{"array", `[1]`, false},
		{"leading zero", `01`, false},
		{"leading plus", `+1`, false},
		{"bare minus", `-`, false},
		{"trailing dot", `1.`, false},
		{"leading dot", `.5`, false},
		{"bare exponent", `1e`, false},
		{"exponent sign only", `1e+`, false},
		{"hex", `0x10`, false},
		{"trailing space then data", `1 2`, false},
	}},
	{cty.Bool, []unmarshalCase{
		{"true", `true`, true},
		{"false", `false`, true},
		{"null", `null`, true},
		{"string true", `"true"`, true},
		{"string false", `"false"`, true},
		{"string one", `"1"`, true},
		{"string zero", `"0"`, true},
		{"string yes", `"yes"`, false},
		{"number", `1`, false},
		{"truncated", `tru`, false},
		{"trailing letters", `truex`, false},
	}},
	{cty.List(cty.String), []unmarshalCase{
		{"two", `["a","b"]`, true},
		{"empty", `[]`, true},
		{"empty with space", `[ ]`, true},
		{"null", `null`, true},
		{"null element", `["a",null]`, true},
		{"converted elements", `[1, true, "x"]`, true},
		{"spaced", " [ \"a\" ,\n\"b\" ] ", true},
		{"leading comma", `[,"a"]`, false},
		{"trailing comma", `["a",]`, false},
		{"missing comma", `["a" "b"]`, false},
		{"unterminated", `["a"`, false},
		{"object", `{}`, false},
		{"wrong element", `[{}]`, false},
		{"trailing data", `["a"] x`, false},
	}},
	{cty.List(cty.List(cty.Number)), []unmarshalCase{
		{"nested", `[[1,2],[],[3]]`, true},
		{"nested null", `[null,[1]]`, true},
	}},
	{cty.Set(cty.String), []unmarshalCase{
		{"two", `["b","a"]`, true},
		{"duplicates", `["a","b","a"]`, true},
		{"empty", `[]`, true},
		{"null", `null`, true},
		{"wrong element", `[[]]`, false},
	}},
	{cty.Set(cty.Number), []unmarshalCase{
		{"equal numbers", `[1, 1.0, "1", 2]`, true},
	}},
	{cty.Map(cty.String), []unmarshalCase{
		{"two", `{"a":"1","b":"2"}`, true},
		{"empty", `{}`, true},
		{"empty with space", `{ }`, true},
		{"null", `null`, true},
		{"null element", `{"a":null}`, true},
		{"repeated key", `{"a":"1","a":"2"}`, true},
		{"escaped key", `{"\u00e9\n":"x","e\u0301":"y"}`, true},
		{"empty key", `{"":"x"}`, true},
		{"missing colon", `{"a" "1"}`, false},
		{"missing value", `{"a":}`, false},
		{"trailing comma", `{"a":"1",}`, false},
		{"missing comma", `{"a":"1" "b":"2"}`, false},
		{"number key", `{1:"2"}`, false},
		{"array", `[]`, false},
		{"wrong element", `{"a":[]}`, false},
	}},
	{cty.Map(cty.List(cty.Number)), []unmarshalCase{
		{"nested", `{"a":[1,2],"b":[]}`, true},
	}},
	{cty.Tuple([]cty.Type{cty.String, cty.Number, cty.Bool}), []unmarshalCase{
		{"exact", `["a",1,true]`, true},
		{"nulls", `[null,null,null]`, true},
		{"null", `null`, true},
		{"too many", `["a",1,true,"x"]`, false},
		{"too few", `["a",1]`, false},
		{"empty", `[]`, false},
		{"wrong element", `["a","b",true]`, false},
	}},
	{cty.EmptyTuple, []unmarshalCase{
		{"empty", `[]`, true},
		{"too many", `[1]`, false},
	}},
	{cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number, "c": cty.List(cty.Bool)}), []unmarshalCase{
		{"all", `{"a":"x","b":1,"c":[true]}`, true},
		{"reordered", `{"c":[],"b":2,"a":"y"}`, true},
		{"missing attributes", `{"b":1}`, true},
		{"no attributes", `{}`, true},
		{"null attribute", `{"a":null}`, true},
		{"repeated attribute", `{"a":"1","a":"2"}`, true},
		{"escaped attribute name", `{"\u0061":"x"}`, true},
		{"null", `null`, true},
		{"unknown attribute", `{"a":"x","z":1}`, false},
		{"wrong attribute", `{"b":"x"}`, false},
		{"array", `[]`, false},
	}},
	{cty.EmptyObject, []unmarshalCase{
		{"empty", `{}`, true},
		{"unknown attribute", `{"a":1}`, false},
	}},
	{cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Number}, []string{"b"}), []unmarshalCase{
		{"optional given", `{"a":"x","b":1}`, true},
		{"optional missing", `{"a":"x"}`, true},
	}},
	{cty.Object(map[string]cty.Type{"o": cty.Object(map[string]cty.Type{"m": cty.Map(cty.Set(cty.String))})}), []unmarshalCase{
		{"deep", `{"o":{"m":{"k":["a","b"],"l":[]}}}`, true},
		{"deep nulls", `{"o":{"m":null}}`, true},
	}},
	{cty.DynamicPseudoType, []unmarshalCase{
		{"string", `{"value":"x","type":"string"}`, true},
		{"type first", `{"type":"number","value":12.5}`, true},
		{"null value", `{"value":null,"type":"string"}`, true},
		{"null", `null`, true},
		{"spaced", ` { "value" : [ 1 ] , "type" : [ "list" , "number" ] } `, true},
		{"object", `{"value":{"refs":["a","b"],"value":"v1-3"},"type":["object",{"refs":["tuple",["string","string"]],"value":"string"}]}`, true},
		{"optional attributes type", `{"value":{"a":"x"},"type":["object",{"a":"string","b":"number"},["b"]]}`, true},
		{"nested dynamic", `{"value":{"value":"x","type":"string"},"type":"dynamic"}`, true},
		{"nested dynamic type first", `{"type":"dynamic","value":{"type":"bool","value":true}}`, true},
		{"dynamic attribute", `{"value":{"d":{"value":[1,2],"type":["set","number"]}},"type":["object",{"d":"dynamic"}]}`, true},
		{"dynamic elements", `{"value":[{"value":"a","type":"string"},null],"type":["list","dynamic"]}`, true},
		{"escaped type", `{"value":"x","type":"str\u0069ng"}`, true},
		{"empty", `{}`, false},
		{"missing type", `{"value":"x"}`, false},
		{"missing value", `{"type":"string"}`, false},
		{"extra key", `{"value":"x","type":"string","z":1}`, false},
		{"invalid type", `{"value":"x","type":"strung"}`, false},
		{"null type", `{"value":"x","type":null}`, false},
		{"value not of type", `{"value":"x","type":"number"}`, false},
		{"invalid value after type", `{"type":"string","value":[}`, false},
		{"repeated value", `{"value":"x","value":"y","type":"string"}`, false},
		{"repeated type", `{"value":"1","type":"string","type":"number"}`, false},
		{"repeated value after type", `{"type":"string","value":"x","value":"y"}`, false},
		{"plain value", `"x"`, false},
		{"trailing comma", `{"value":"x","type":"string",}`, false},
	}},
	{cty.List(cty.DynamicPseudoType), []unmarshalCase{
		{"same types", `[{"value":"a","type":"string"},{"type":"string","value":"b"}]`, true},
		{"nulls", `[null,null]`, true},
		{"empty", `[]`, true},
	}},
	{dataType, []unmarshalCase{
		{"terraform_data", dataJSON, true},
		{"no input", `{"id":"x","input":null,"output":null,"triggers_replace":null}`, true},
	}},
}

// dataType is the type of the built-in terraform_data resource.
var dataType = cty.Object(map[string]cty.Type{
	"id":               cty.String,
	"input":            cty.DynamicPseudoType,
	"output":           cty.DynamicPseudoType,
	"triggers_replace": cty.DynamicPseudoType,
})

// dataJSON is a stored terraform_data object as go-cty writes it.
const dataJSON = `{"id":"5b1f2a3c-8e4d-4f6a-9b7c-0d1e2f3a4b5c",` +
	`"input":{"value":{"refs":["a","b"],"value":"v1-3"},"type":["object",{"refs":["tuple",["string","string"]],"value":"string"}]},` +
	`"output":{"value":{"refs":["a","b"],"value":"v1-3"},"type":["object",{"refs":["tuple",["string","string"]],"value":"string"}]},` +
	`"triggers_replace":{"value":"t1","type":"string"}}`

func TestUnmarshal(t *testing.T) {
	for _, group := range unmarshalCases {
		for _, tc := range group.cases {
			t.Run(group.ty.FriendlyName()+"/"+tc.name, func(t *testing.T) {
				checkSame(t, []byte(tc.json), group.ty)
				if _, fast := decode([]byte(tc.json), group.ty); fast != tc.fast {
					t.Errorf("fast path decoded it: %v, want %v", fast, tc.fast)
				}
			})
		}
	}
}

// TestUnmarshalErrorsAreGoCtys checks that an error is go-cty's own, path and all.
func TestUnmarshalErrorsAreGoCtys(t *testing.T) {
	data := []byte(`{"a":"x","z":1}`)
	_, err := Unmarshal(data, cty.Object(map[string]cty.Type{"a": cty.String}))
	if err == nil || err.Error() != `unsupported attribute "z"` {
		t.Fatalf("got error %v, want go-cty's unsupported attribute error", err)
	}
	data = []byte(`{"a":[1,"x"]}`)
	_, err = Unmarshal(data, cty.Map(cty.List(cty.Number)))
	var pathErr cty.PathError
	if !asPathError(err, &pathErr) || len(pathErr.Path) != 2 {
		t.Fatalf("got error %#v, want a cty.PathError at [\"a\"][1]", err)
	}
}

func asPathError(err error, target *cty.PathError) bool {
	pe, ok := err.(cty.PathError)
	if ok {
		*target = pe
	}
	return ok
}

// TestUnmarshalPanicsLikeGoCty checks inputs on which go-cty's constructors
// panic: list elements of differing dynamic types.
func TestUnmarshalPanicsLikeGoCty(t *testing.T) {
	for _, in := range []string{
		`[{"value":"a","type":"string"},{"value":1,"type":"number"}]`,
		`[[{"value":"a","type":"string"},{"value":1,"type":"number"}], x]`,
	} {
		got := checkSame(t, []byte(in), cty.List(cty.DynamicPseudoType))
		if got.panicked == "" && got.err == "" {
			t.Errorf("Unmarshal(%s) succeeded, want go-cty's panic or error", in)
		}
	}
}

// TestUnmarshalCapsule checks that capsule types are left to go-cty.
func TestUnmarshalCapsule(t *testing.T) {
	type thing struct{ A int }
	ty := cty.Capsule("thing", reflect.TypeFor[thing]())
	v, err := Unmarshal([]byte(`{"A":7}`), ty)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if got := *v.EncapsulatedValue().(*thing); got.A != 7 {
		t.Errorf("got %+v, want {A:7}", got)
	}
	checkSame(t, []byte(`null`), ty)
	checkSame(t, []byte(`[]`), ty)
}

// TestUnmarshalDeepNesting checks nesting up to and beyond the fast path's
// limit, past which go-cty decides.
func TestUnmarshalDeepNesting(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		ty := cty.Number
		for range depth {
			ty = cty.List(ty)
		}
		data := strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)
		if depth <= maxDepth {
			// go-cty takes seconds at this depth; the value is known.
			want := cty.NumberIntVal(1)
			for range depth {
				want = cty.ListVal([]cty.Value{want})
			}
			if got, err := Unmarshal([]byte(data), ty); err != nil || !got.RawEquals(want) {
				t.Errorf("depth %d: decoded a different value (error %v)", depth, err)
			}
		}
		if _, fast := decode([]byte(data), ty); fast != (depth <= maxDepth) {
			t.Errorf("depth %d: fast path decoded it: %v", depth, fast)
		}
	}
	// Deep dynamic values are skipped before they are decoded. (Past the
	// limit go-cty decides, and takes seconds to: not compared here.)
	data := strings.Repeat(`{"value":`, maxDepth+1) + `"x"` + strings.Repeat(`,"type":"dynamic"}`, maxDepth) + `,"type":"string"}`
	if _, fast := decode([]byte(data), cty.DynamicPseudoType); fast {
		t.Errorf("dynamic value nested %d deep: fast path decoded it", maxDepth+1)
	}
}

// TestUnmarshalTypeCache checks that a cached type decodes like a fresh one.
func TestUnmarshalTypeCache(t *testing.T) {
	data := []byte(`{"value":{"a":["x"]},"type":["object",{"a":["list","string"]}]}`)
	for range 3 {
		checkSame(t, data, cty.DynamicPseudoType)
	}
	if _, ok := types.Load(`["object",{"a":["list","string"]}]`); !ok {
		t.Error("the type was not cached")
	}
}

// TestUnmarshalConcurrent decodes from many goroutines (run with -race).
func TestUnmarshalConcurrent(t *testing.T) {
	want, err := ctyjson.Unmarshal([]byte(dataJSON), dataType)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan cty.Value)
	for range 8 {
		go func() {
			var v cty.Value
			for range 100 {
				v, _ = Unmarshal([]byte(dataJSON), dataType)
			}
			done <- v
		}()
	}
	for range 8 {
		if got := <-done; !got.RawEquals(want) {
			t.Errorf("got %#v, want %#v", got, want)
		}
	}
}

// TestUnmarshalSharesRepeatedStrings: a string decoded again, in the same
// value or another, is the one decoded first, not a copy of it.
func TestUnmarshalSharesRepeatedStrings(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "refs": cty.List(cty.String)})
	a, err := Unmarshal([]byte(`{"id":"4f0c2a7e-0000-4b1c-9d2e-8a7f6e5d4c3b","refs":[]}`), ty)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Unmarshal([]byte(`{"id":"other","refs":["4f0c2a7e-0000-4b1c-9d2e-8a7f6e5d4c3b"]}`), ty)
	if err != nil {
		t.Fatal(err)
	}
	id, ref := a.GetAttr("id").AsString(), b.GetAttr("refs").Index(cty.NumberIntVal(0)).AsString()
	if id != ref || unsafe.StringData(id) != unsafe.StringData(ref) {
		t.Errorf("the repeated string is a copy: %q at %p, %q at %p", id, unsafe.StringData(id), ref, unsafe.StringData(ref))
	}
}
