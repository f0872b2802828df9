package ctyjson

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// TestUnmarshalType checks that type descriptions decode as go-cty decodes
// them, errors included.
func TestUnmarshalType(t *testing.T) {
	tests := []struct {
		name, data string
		wantErr    bool
	}{
		{"string", `"string"`, false},
		{"number", ` "number" `, false},
		{"bool", `"bool"`, false},
		{"dynamic", `"dynamic"`, false},
		{"list", `["list","string"]`, false},
		{"set", `["set",["map","number"]]`, false},
		{"object", `["object",{"a":"string","b":["list","bool"]}]`, false},
		{"empty object", `["object",{}]`, false},
		{"null object", `["object",null]`, false},
		{"optional attributes", `["object",{"a":"string","b":"number"},["b"]]`, false},
		{"tuple", `["tuple",["string",["tuple",[]]]]`, false},
		{"null tuple", `["tuple",null]`, false},
		{"unknown primitive", `"strung"`, true},
		{"unknown kind", `["bag","string"]`, true},
		{"extra element", `["list","string","x"]`, true},
		{"trailing bracket, which go-cty accepts", `"string"]`, false},
		{"bad element", `["list","strung"]`, true},
		{"not JSON", `[`, true},
		{"not a description", `1`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := UnmarshalType([]byte(tt.data))
			want, wantErr := ctyjson.UnmarshalType([]byte(tt.data))
			if (err != nil) != tt.wantErr {
				t.Fatalf("UnmarshalType(%s) error = %v, want error %v", tt.data, err, tt.wantErr)
			}
			if err != nil {
				if err.Error() != wantErr.Error() {
					t.Errorf("error %q, go-cty's %q", err, wantErr)
				}
				return
			}
			if !got.Equals(want) {
				t.Errorf("UnmarshalType(%s) = %#v, go-cty's %#v", tt.data, got, want)
			}
		})
	}
}

// TestUnmarshalTypeDeep decodes the type of a tuple nested 5000 deep, as
// a state records for an output holding such a value.
func TestUnmarshalTypeDeep(t *testing.T) {
	const depth = 5000
	data := strings.Repeat(`["tuple",[`, depth) + `"number"` + strings.Repeat(`]]`, depth)
	got, err := UnmarshalType([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := cty.Number
	for range depth {
		want = cty.Tuple([]cty.Type{want})
	}
	if !got.Equals(want) {
		t.Errorf("decoded a different type: %.100s…", got.GoString())
	}
}

// TestMarshalType checks that types encode as go-cty encodes them, and
// decode back to themselves.
func TestMarshalType(t *testing.T) {
	deep := cty.String
	for range 50 {
		deep = cty.List(cty.Tuple([]cty.Type{deep, cty.Bool}))
	}
	tests := []struct {
		name string
		ty   cty.Type
	}{
		{"string", cty.String},
		{"dynamic", cty.DynamicPseudoType},
		{"collections", cty.Map(cty.Set(cty.List(cty.Number)))},
		{"object", cty.Object(map[string]cty.Type{"b": cty.Bool, "a<&>": cty.String, "é": cty.EmptyObject})},
		{"optional attributes", cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Number}, []string{"b"})},
		{"tuple", cty.Tuple([]cty.Type{cty.String, cty.EmptyTuple})},
		{"nested", deep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MarshalType(tt.ty)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ctyjson.MarshalType(tt.ty)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("MarshalType = %s, go-cty's %s", got, want)
			}
			back, err := UnmarshalType(got)
			if err != nil || !back.Equals(tt.ty) {
				t.Errorf("decoded back as %#v (error %v)", back, err)
			}
		})
	}
}
