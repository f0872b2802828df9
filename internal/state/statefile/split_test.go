package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// wideState is a state of n resources of one instance each, enough for
// several of decodeV4Parallel's windows, each depending on the one before.
func wideState(t testing.TB, n int) []byte {
	t.Helper()
	s := state.New()
	s.TerraformVersion = "1.10.0"
	s.Outputs["n"] = state.OutputValue{Value: cty.NumberIntVal(int64(n))}
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range n {
		r := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Absolute(addrs.RootModule)
		var deps []addrs.AbsResource
		if i > 0 {
			deps = []addrs.AbsResource{addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", i-1)}.Absolute(addrs.RootModule)}
		}
		attrs := fmt.Sprintf(`{"id":"id-%d","input":{"value":"a \"quoted\" \\ value [%d]}","type":"string"},"output":null,"triggers_replace":null}`, i, i)
		s.SetObject(addrs.ObjectAddr{Instance: r.Instance(addrs.NoKey)}, &state.Object{AttrsJSON: json.RawMessage(attrs), Dependencies: deps}, pc)
	}
	data, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// editResources decodes a state file loosely, lets edit change its top-level
// object, and encodes it again, indented.
func editResources(t *testing.T, data []byte, edit func(top map[string]any, resources []any) []any) []byte {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	top["resources"] = edit(top, top["resources"].([]any))
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// copyJSON is a deep copy of a loosely decoded JSON value.
func copyJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParseLargeFileInParallel checks that a large state file decodes, on
// every processor, to exactly what one pass of the decoder gives, with the
// same error where there is one, whatever the file's layout or oddities.
func TestParseLargeFileInParallel(t *testing.T) {
	defer func(v int) { parallelParseMin = v }(parallelParseMin)
	parallelParseMin = 0

	base := wideState(t, 1500)
	var compact bytes.Buffer
	if err := json.Compact(&compact, base); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		data     []byte
		parallel bool   // whether parseParallel must accept it
		wantErr  string // a part of the error, if Parse must fail
	}{
		{name: "as rig writes it", data: base, parallel: true},
		{name: "on one line", data: compact.Bytes(), parallel: true},
		{name: "resource recorded twice, far apart", parallel: true, data: editResources(t, base, func(_ map[string]any, rs []any) []any {
			again := copyJSON(t, rs[0]).(map[string]any)
			again["instances"].([]any)[0].(map[string]any)["index_key"] = 1
			return append(rs, again)
		})},
		{name: "object recorded twice", wantErr: "recorded more than once", data: editResources(t, base, func(_ map[string]any, rs []any) []any {
			return append(rs, copyJSON(t, rs[3]))
		})},
		{name: "invalid mode in a late window", wantErr: `invalid mode "bogus"`, data: editResources(t, base, func(_ map[string]any, rs []any) []any {
			rs[1400].(map[string]any)["mode"] = "bogus"
			return rs
		})},
		{name: "a second key that matches resources", data: editResources(t, base, func(top map[string]any, rs []any) []any {
			top["Resources"] = []any{copyJSON(t, rs[0])}
			return rs
		})},
		{name: "key written with an escape", data: bytes.Replace(base, []byte(`"resources"`), []byte(`"resourc\u0065s"`), 1)},
		{name: "resources null", data: bytes.Replace(base, []byte(`"resources": [`), []byte(`"resources": null, "x": [`), 1)},
		{name: "syntax error inside an element", wantErr: "not valid JSON at line", data: bytes.Replace(base, []byte(`"r700"`), []byte(`"r700" x`), 1)},
		{name: "element that is not an object", wantErr: "cannot unmarshal", data: bytes.Replace(base, []byte(`"resources": [`), []byte(`"resources": [ 1,`), 1)},
		{name: "trailing comma in the array", wantErr: "not valid JSON", data: bytes.Replace(base, []byte("}\n  ],\n  \"check_results\""), []byte("},\n  ],\n  \"check_results\""), 1)},
		{name: "missing comma between elements", wantErr: "not valid JSON", data: bytes.Replace(base, []byte("    },\n    {\n"), []byte("    }\n    {\n"), 1)},
		{name: "garbage after the file", wantErr: "not valid JSON", data: append(bytes.Clone(base), " {}"...)},
		{name: "unterminated", wantErr: "not valid JSON", data: base[:len(base)/2]},
		{name: "version 3", wantErr: "version 3 holds the resources of a version 4 file", data: bytes.Replace(base, []byte(`"version": 4`), []byte(`"version": 3`), 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if bytes.Equal(tt.data, base) && tt.name != "as rig writes it" {
				t.Fatal("the edit changed nothing")
			}
			want, wantErr := parseOnePass(tt.data)
			got, err := Parse(tt.data)
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want one containing %q", err, tt.wantErr)
				}
				if wantErr == nil || err.Error() != wantErr.Error() {
					t.Fatalf("Parse error = %v, one pass gives %v", err, wantErr)
				}
				return
			case err != nil || wantErr != nil:
				t.Fatalf("Parse error = %v, one pass error = %v", err, wantErr)
			}
			if diff := cmp.Diff(want, got, stateCmp); diff != "" {
				t.Fatalf("Parse differs from one pass (-one pass +Parse):\n%s", diff)
			}
			if _, ok := parseParallel(tt.data); ok != tt.parallel {
				t.Fatalf("parseParallel accepted = %v, want %v", ok, tt.parallel)
			}
		})
	}
}

// FuzzParseParallel checks that whatever parseParallel accepts, one pass of
// the decoder accepts too, with the same result.
func FuzzParseParallel(f *testing.F) {
	addStateFileSeeds(f)
	f.Add(wideState(f, 3))
	for _, seed := range []string{
		`{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[{"schema_version":0,"attributes":{"a":"]\"["}}]}]}`,
		`{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[]},{"mode":"managed","type":"t","name":"n","instances":[{"index_key":1,"attributes":{}}]}]}`,
		`{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[]}],"Resources":[]}`,
		`{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[]}]}]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := parseParallel(data)
		if !ok {
			return
		}
		want, err := parseOnePass(data)
		if err != nil {
			t.Fatalf("parseParallel accepted what one pass rejects: %v", err)
		}
		if diff := cmp.Diff(want, got, stateCmp); diff != "" {
			t.Fatalf("parseParallel differs from one pass (-one pass +parallel):\n%s", diff)
		}
	})
}
