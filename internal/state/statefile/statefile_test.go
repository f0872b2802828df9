package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// stateCmp compares states: cty values by RawEquals.
var stateCmp = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
}

// TestRoundTrip checks that every state file under testdata (the
// terraform-* ones written by Terraform 1.11.4 itself, the others by hand in
// the same form) comes back byte for byte from Parse then Marshal, and that
// Marshal agrees with the reference encoder.
func TestRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/*.tfstate")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(want)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := Marshal(s)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Marshal(Parse(file)) differs (-want +got):\n%s", diff)
			}
			if ref := referenceMarshal(t, s); !bytes.Equal(ref, got) {
				t.Errorf("Marshal differs from reference encoder (-ref +got):\n%s", cmp.Diff(string(ref), string(got)))
			}
			var buf bytes.Buffer
			if err := Write(&buf, s); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if !bytes.Equal(buf.Bytes(), got) {
				t.Errorf("Write and Marshal differ")
			}
			s2, err := Read(bytes.NewReader(got))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if diff := cmp.Diff(s, s2, stateCmp); diff != "" {
				t.Errorf("state changed through Marshal and Read (-first +second):\n%s", diff)
			}
		})
	}
}

func mustParse(t *testing.T, file string) *state.State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseModel(t *testing.T) {
	s := mustParse(t, "handwritten.tfstate")
	td := func(name string) addrs.Resource {
		return addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}
	}
	counted := td("counted").Absolute(addrs.RootModule)
	blue := addrs.ModuleInstance(`module.app["blue"]`)
	builtin := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

	if s.Serial != 42 || s.Lineage != "5f1c9a3e-2b7d-4c8e-9a01-3d4e5f6a7b8c" || s.TerraformVersion != "1.10.0" {
		t.Errorf("header = %d %q %q", s.Serial, s.Lineage, s.TerraformVersion)
	}
	if got := len(s.Resources); got != 10 {
		t.Errorf("%d resources, want 10", got)
	}

	tests := []struct {
		name string
		addr addrs.ObjectAddr
		want func(*state.Object) bool
	}{
		{"count current has cbd and dependencies",
			addrs.ObjectAddr{Instance: counted.Instance(addrs.IntKey(0))},
			func(o *state.Object) bool {
				return o.CreateBeforeDestroy && len(o.Dependencies) == 2 &&
					o.Dependencies[0] == addrs.Resource{Mode: addrs.Data, Type: "terraform_remote_state", Name: "net"}.Absolute(addrs.RootModule)
			}},
		{"deposed object",
			addrs.ObjectAddr{Instance: counted.Instance(addrs.IntKey(0)), Deposed: "0a1b2c3d"},
			func(o *state.Object) bool { return strings.Contains(string(o.AttrsJSON), `"old"`) }},
		{"tainted",
			addrs.ObjectAddr{Instance: counted.Instance(addrs.IntKey(2))},
			func(o *state.Object) bool { return o.Status == state.Tainted }},
		{"attributes are compact",
			addrs.ObjectAddr{Instance: counted.Instance(addrs.IntKey(0))},
			func(o *state.Object) bool {
				return string(o.AttrsJSON) == `{"id":"0b5a4b12-7a0e-9c1c-1f6e-6f0f5b8d2a10","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":null}`
			}},
		{"for_each key, private, sensitive paths",
			addrs.ObjectAddr{Instance: td("each").Absolute(addrs.RootModule).Instance(addrs.StringKey("a b"))},
			func(o *state.Object) bool {
				return string(o.Private) == `{"schema_version":"1"}` &&
					string(o.SensitiveAttributes) == `[[{"type":"get_attr","value":"input"}]]` &&
					o.Dependencies[0] == td("inner").Absolute("module.app")
			}},
		{"deposed tainted with binary private",
			addrs.ObjectAddr{Instance: td("each").Absolute(addrs.RootModule).Instance(addrs.StringKey("z&z")), Deposed: "12345678"},
			func(o *state.Object) bool {
				return o.Status == state.Tainted && o.SchemaVersion == 1 && bytes.Equal(o.Private, []byte{0, 1, 2, 255})
			}},
		{"legacy flat attributes",
			addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "null_resource", Name: "legacy"}.Absolute(addrs.RootModule).Instance(addrs.NoKey)},
			func(o *state.Object) bool { return o.AttrsJSON == nil && o.AttrsFlat["triggers.a"] == "b" }},
		{"identity",
			addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "random_pet", Name: "name"}.Absolute(addrs.RootModule).Instance(addrs.NoKey)},
			func(o *state.Object) bool {
				return o.IdentitySchemaVersion != nil && *o.IdentitySchemaVersion == 0 && string(o.IdentityJSON) == `{"id":"sure-lemur"}`
			}},
		{"nested module",
			addrs.ObjectAddr{Instance: td("deep").Absolute(`module.app["blue"].module.db[1]`).Instance(addrs.NoKey)},
			func(o *state.Object) bool { return o.CreateBeforeDestroy && o.SensitiveAttributes == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := s.Object(tt.addr)
			if o == nil {
				t.Fatalf("no object at %s", tt.addr)
			}
			if !tt.want(o) {
				t.Errorf("unexpected object at %s: %+v", tt.addr, o)
			}
		})
	}

	if pc := s.Resource(td("inner").Absolute(blue)).ProviderConfig; pc != (addrs.AbsProviderConfig{Module: "module.app", Provider: builtin.Provider}) {
		t.Errorf("module provider = %s", pc)
	}
	if pc := s.Resource(addrs.Resource{Mode: addrs.Managed, Type: "random_pet", Name: "name"}.Absolute(addrs.RootModule)).ProviderConfig; pc.Alias != "west" {
		t.Errorf("aliased provider = %s", pc)
	}
	wantOutputs := map[string]state.OutputValue{
		"a_bool":      {Value: cty.True},
		"a_list":      {Value: cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")})},
		"a_map":       {Value: cty.MapVal(map[string]cty.Value{"k1": cty.StringVal("v1"), "k2": cty.StringVal("v2")})},
		"a_number":    {Value: cty.NumberFloatVal(3.25)},
		"a_object":    {Value: cty.ObjectVal(map[string]cty.Value{"enabled": cty.False, "name": cty.StringVal("web"), "ports": cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)})})},
		"a_secret":    {Value: cty.StringVal("hunter2"), Sensitive: true},
		"a_set":       {Value: cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		"a_string":    {Value: cty.StringVal("hello <world> & \"friends\"\n")},
		"empty_map":   {Value: cty.MapValEmpty(cty.Number)},
		"null_string": {Value: cty.NullVal(cty.String)},
	}
	if diff := cmp.Diff(wantOutputs, s.Outputs, stateCmp); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	var checks []map[string]any
	if err := json.Unmarshal(s.CheckResults, &checks); err != nil || len(checks) != 1 {
		t.Errorf("check results %s: %v", s.CheckResults, err)
	}
}

// TestMarshalModel writes a state built through the state API (as apply
// builds it) and compares it with a golden file; -update rewrites it.
func TestMarshalModel(t *testing.T) {
	s := state.New()
	s.Lineage = "11111111-2222-4333-8444-555555555555"
	s.Serial = 3
	s.TerraformVersion = "1.10.0"
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType})
	a := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Absolute(addrs.RootModule)
	b := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "b"}.Absolute("module.m")
	for i := range 3 {
		obj, err := state.NewObject(cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("a" + string(rune('0'+i))), "input": cty.NumberIntVal(int64(i))}), ty)
		if err != nil {
			t.Fatal(err)
		}
		obj.CreateBeforeDestroy = i == 1
		s.SetObject(addrs.ObjectAddr{Instance: a.Instance(addrs.IntKey(i))}, obj, pc)
	}
	s.Depose(a.Instance(addrs.IntKey(1)))
	obj, err := state.NewObject(cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("b<>"), "input": cty.StringVal("x")}), ty)
	if err != nil {
		t.Fatal(err)
	}
	obj.Dependencies = []addrs.AbsResource{a}
	obj.Private = []byte("private")
	s.SetObject(addrs.ObjectAddr{Instance: b.Instance(addrs.StringKey("k"))}, obj, pc)
	s.Outputs["x"] = state.OutputValue{Value: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)})}

	got, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	// The deposed key is random: pin it for the golden file.
	for dk := range s.Instance(a.Instance(addrs.IntKey(1))).Deposed {
		got = bytes.ReplaceAll(got, []byte(dk), []byte("deadbeef"))
	}
	golden.Check(t, "testdata/model.golden", got)
	if _, err := Parse(got); err != nil {
		t.Errorf("Parse(Marshal(s)): %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	const head = `{"version":4,"terraform_version":"1.10.0","serial":1,"lineage":"l","outputs":{},"resources":[`
	const tail = `]}`
	res := func(inst string) string {
		return head + `{"mode":"managed","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/t\"]","instances":[` + inst + `]}` + tail
	}
	tests := []struct {
		name   string
		in     string
		want   string
		wantIs error
	}{
		{name: "empty", in: " \n", wantIs: ErrEmpty},
		{name: "binary version 0", in: "tfstate\x00\x01", want: "binary format of Terraform 0.6 and earlier"},
		{name: "version 0", in: `{"version":0,"serial":1}`, want: "state file version 0 is not valid"},
		{name: "version 3 with version 4's resources", in: `{"version":3,"resources":[{"mode":"managed","type":"t","name":"n","instances":[]}]}`, want: "state file version 3 holds the resources of a version 4 file"},
		{name: "version 3 with clashing fields", in: `{"version":3,"resources":{}}`, want: "state file version 3 holds the resources of a version 4 file"},
		{name: "version 3 negative serial", in: `{"version":3,"serial":-1,"modules":[]}`, want: "upgrading state file format from version 3 to version 4: state has a serial less than zero"},
		{name: "version 3 module path", in: `{"version":3,"modules":[{"path":["net"]}]}`, want: `invalid module path ["net"]`},
		{name: "version 3 bad resource key", in: `{"version":3,"modules":[{"path":["root"],"resources":{"aws_instance":{"type":"aws_instance"}}}]}`, want: `invalid resource address "aws_instance"`},
		{name: "version 3 interpolated provider alias", in: `{"version":3,"modules":[{"path":["root"],"resources":{"aws_instance.a":{"type":"aws_instance","provider":"provider.aws.${var.x}","primary":{"id":"i"}}}}]}`, want: "cannot hold a template sequence"},
		{name: "version 3 corrupt", in: "{\"version\":3,\n\"modules\":[{]}", want: "not valid JSON at line 2"},
		{name: "version 5", in: `{"version":5}`, want: "state file version 5 is not supported; it was written by a newer program"},
		{name: "no version", in: `{"serial":1}`, want: "state file has no version number"},
		{name: "string version", in: `{"version":"4"}`, want: `invalid version number "4"`},
		{name: "corrupt json", in: "{\n  \"version\": 4,\n  \"serial\": 1\n  \"lineage\": \"x\"\n}", want: "not valid JSON at line 4, column 3"},
		{name: "wrong field type", in: "{\"version\": 4,\n\"serial\": \"one\"}", want: "not valid JSON at line 2"},
		{name: "truncated", in: `{"version": 4, "resources": [`, want: "not valid JSON"},
		{name: "bad mode", in: head + `{"mode":"weird","type":"t","name":"n","instances":[]}` + tail, want: `resource t.n: invalid mode "weird"`},
		{name: "empty name", in: head + `{"mode":"managed","type":"t","name":"","instances":[]}` + tail, want: `type and name must not be empty`},
		{name: "bad module", in: head + `{"module":"mod.x","mode":"managed","type":"t","name":"n","instances":[]}` + tail, want: `resource mod.x.t.n: invalid module address "mod.x"`},
		{name: "non-canonical module", in: head + `{"module":"module.x[ 1 ]","mode":"managed","type":"t","name":"n","instances":[]}` + tail, want: `invalid module address`},
		{name: "provider in module instance", in: head + `{"mode":"managed","type":"t","name":"n","provider":"module.m[0].provider[\"a/b/c\"]","instances":[]}` + tail, want: `a module instance key is not allowed here`},
		{name: "bad provider", in: head + `{"mode":"managed","type":"t","name":"n","provider":"aws","instances":[]}` + tail, want: `resource t.n: invalid provider configuration address "aws"`},
		{name: "provider conflict", in: head + `{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]},{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/d\"]","instances":[]}` + tail, want: `resource t.n: recorded twice with different providers`},
		{name: "duplicate instance", in: res(`{"index_key":1,"schema_version":0,"attributes":{}},{"index_key":1,"schema_version":0,"attributes":{}}`), want: "resource instance t.n[1]: recorded more than once"},
		{name: "duplicate deposed", in: res(`{"deposed":"00000001","schema_version":0},{"deposed":"00000001","schema_version":0}`), want: "resource instance t.n: deposed object 00000001 recorded more than once"},
		{name: "short deposed key", in: res(`{"deposed":"abc","schema_version":0}`), want: `resource instance t.n: invalid deposed key "abc"`},
		{name: "bad status", in: res(`{"status":"broken","schema_version":0}`), want: `resource instance t.n: invalid status "broken"`},
		{name: "negative key", in: res(`{"index_key":-1,"schema_version":0}`), want: "resource t.n: invalid instance key -1"},
		{name: "fractional key", in: res(`{"index_key":1.5,"schema_version":0}`), want: "resource t.n: invalid instance key 1.5"},
		{name: "bool key", in: res(`{"index_key":true,"schema_version":0}`), want: "resource t.n: invalid instance key true"},
		{name: "bad dependency", in: res(`{"schema_version":0,"dependencies":["nope"]}`), want: `resource instance t.n: dependencies: invalid resource instance address "nope"`},
		{name: "instance dependency", in: res(`{"schema_version":0,"dependencies":["a.b[0]"]}`), want: `an instance key is not allowed here`},
		{name: "dependencies not a list", in: res(`{"schema_version":0,"dependencies":"a.b"}`), want: `resource instance t.n: dependencies: want a list of resource addresses`},
		{name: "dependency not a string", in: res(`{"schema_version":0,"dependencies":["a.b",1]}`), want: `resource instance t.n: dependencies: want a list of resource addresses`},
		{name: "escaped bad dependency", in: res(`{"schema_version":0,"dependencies":["a.b\u005b0]"]}`), want: `an instance key is not allowed here`},
		{name: "instance provider unlike the resource's", in: res(`{"schema_version":0,"provider":"provider[\"a/b/c\"].x[\"k\"]"}`), want: `resource t.n: instances recorded with different provider configurations provider["registry.terraform.io/hashicorp/t"] and provider["a/b/c"].x`},
		{name: "instances with different providers", in: head + `{"mode":"managed","type":"t","name":"n","instances":[{"index_key":0,"provider":"provider[\"a/b/c\"].x[\"k\"]","schema_version":0},{"index_key":1,"provider":"provider[\"a/b/c\"].y[\"k\"]","schema_version":0}]}` + tail, want: `resource t.n: instances recorded with different provider configurations provider["a/b/c"].x and provider["a/b/c"].y`},
		{name: "objects of an instance with different provider instances", in: head + `{"mode":"managed","type":"t","name":"n","instances":[{"provider":"provider[\"a/b/c\"].x[\"k\"]","schema_version":0},{"deposed":"00000001","provider":"provider[\"a/b/c\"].x[\"j\"]","schema_version":0}]}` + tail, want: "resource instance t.n: objects recorded with different provider instances"},
		{name: "bad instance provider", in: res(`{"schema_version":0,"provider":"provider[\"a/b/c\"].x[k]"}`), want: `resource instance t.n: invalid provider configuration address`},
		{name: "bad private", in: res(`{"schema_version":0,"private":"!!"}`), want: "illegal base64"},
		{name: "output without type", in: `{"version":4,"outputs":{"o":{"value":1}}}`, want: `output "o": no type recorded`},
		{name: "output bad type", in: `{"version":4,"outputs":{"o":{"value":1,"type":"nonsense"}}}`, want: `output "o": invalid type`},
		{name: "output type that makes cty panic", in: `{"version":4,"outputs":{"o":{"value":null,"type":["object",{},["x"]]}}}`, want: `output "o": invalid type`},
		{name: "output value mismatch", in: `{"version":4,"outputs":{"o":{"value":"x","type":"bool"}}}`, want: `output "o": invalid value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", s)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v, want errors.Is %v", err, tt.wantIs)
			}
			if tt.want != "" && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\ndoes not contain %q", err, tt.want)
			}
		})
	}
}

func TestParseLenient(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(*state.State) bool
	}{
		{"minimal", `{"version":4}`, func(s *state.State) bool { return s.Empty() && s.Outputs != nil && s.Resources != nil }},
		{"each is ignored", `{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","each":"list","instances":[{"index_key":0,"schema_version":0,"attributes":{"id":"x"}}]}]}`,
			func(s *state.State) bool { return len(s.Resources) == 1 }},
		{"no attributes means empty object", `{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[{"schema_version":0}]}]}`,
			func(s *state.State) bool {
				for _, r := range s.Resources {
					return string(r.Instances[addrs.NoKey].Current.AttrsJSON) == "{}"
				}
				return false
			}},
		{"exponent index key", `{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[{"index_key":1e1,"schema_version":0}]}]}`,
			func(s *state.State) bool {
				for _, r := range s.Resources {
					return r.Instances[addrs.IntKey(10)] != nil
				}
				return false
			}},
		{"null check results", `{"version":4,"check_results":null}`, func(s *state.State) bool { return s.CheckResults == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(s) {
				t.Errorf("unexpected state %+v", s)
			}
		})
	}
}

// TestParseSharesDependencies: the objects of a file that record the same
// dependencies share one list; null and empty lists are none.
func TestParseSharesDependencies(t *testing.T) {
	s, err := Parse([]byte(`{"version":4,"resources":[
		{"mode":"managed","type":"t","name":"n","instances":[
			{"index_key":0,"schema_version":0,"dependencies":["t.a","module.m.t.b"]},
			{"index_key":1,"schema_version":0,"dependencies":[ "t.a" , "module.m.t.b" ]},
			{"index_key":2,"schema_version":0,"dependencies":["t.a"]},
			{"index_key":3,"schema_version":0,"dependencies":null},
			{"index_key":4,"schema_version":0,"dependencies":[]}]},
		{"mode":"managed","type":"t","name":"o","instances":[
			{"schema_version":0,"dependencies":["t.\u0061","module.m.t.b"]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	n := addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "n"}.Absolute(addrs.RootModule)
	deps := func(k addrs.InstanceKey) []addrs.AbsResource { return s.Resource(n).Instances[k].Current.Dependencies }
	first := deps(addrs.IntKey(0))
	want := []addrs.AbsResource{
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "a"}.Absolute(addrs.RootModule),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "b"}.Absolute("module.m"),
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Fatalf("dependencies (-want +got):\n%s", diff)
	}
	other := s.Resource(addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "o"}.Absolute(addrs.RootModule)).Instances[addrs.NoKey].Current.Dependencies
	for name, list := range map[string][]addrs.AbsResource{"n[1]": deps(addrs.IntKey(1)), "o": other} {
		if len(list) != len(first) || &list[0] != &first[0] {
			t.Errorf("%s records %v in a slice of its own, want n[0]'s", name, list)
		}
	}
	if got := deps(addrs.IntKey(2)); len(got) != 1 || &got[0] == &first[0] {
		t.Errorf("n[2] records %v, want its own list of one", got)
	}
	if deps(addrs.IntKey(3)) != nil || deps(addrs.IntKey(4)) != nil {
		t.Errorf("null and empty lists decode as %v and %v, want nil", deps(addrs.IntKey(3)), deps(addrs.IntKey(4)))
	}
}

func TestMarshalErrors(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	addr := addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "n"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
	tests := []struct {
		name  string
		setup func(*state.State)
		want  string
	}{
		{"invalid attributes", func(s *state.State) {
			s.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{AttrsJSON: json.RawMessage(`{"a":`)}, pc)
		}, "encoding t.n: attributes"},
		{"unknown output", func(s *state.State) {
			s.Outputs["o"] = state.OutputValue{Value: cty.UnknownVal(cty.String)}
		}, `encoding output "o"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state.New()
			tt.setup(s)
			_, err := Marshal(s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestAppendString checks the string escaper against encoding/json.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&</a>",
		"\u2028\u2029", "caf\u00e9 \U0001F600", "bad \xff\xfe utf8", "\xe2\x80", "\xe2\x80\xa8x"} {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendDependency: a recorded dependency is written as its address,
// escaped as any string.
func TestAppendDependency(t *testing.T) {
	deps := []addrs.AbsResource{
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "a"}.Absolute(addrs.RootModule),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "b\u00e9"}.Absolute(addrs.RootModule),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "c"}.Absolute(addrs.RootModule),
		addrs.Resource{Mode: addrs.Data, Type: "t", Name: "a"}.Absolute("module.m.module.n"),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "caf\u00e9"}.Absolute(`module.m["<k>"]`),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "d"}.Absolute(`module.m["<k>"]`),
		addrs.Resource{Mode: addrs.Data, Type: "t&", Name: "a"}.Absolute(addrs.RootModule),
		addrs.Resource{Mode: addrs.Data, Type: "t&", Name: "b"}.Absolute(addrs.RootModule),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "a"}.Absolute("module.m[\"k\\\x7f\"]"),
		addrs.Resource{Mode: addrs.Managed, Type: "t", Name: "a~"}.Absolute("module.m[\"\x1f\"]"),
		addrs.Resource{Mode: addrs.Managed, Type: "u", Name: "a"}.Absolute(addrs.RootModule),
	}
	// One at a time, and as a list whose entries share a module and type.
	var g plainGroup
	for _, dep := range deps {
		want, _ := json.Marshal(dep.String())
		if got := appendDependency([]byte("x"), dep); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("appendDependency(%s) = %s, want x%s", dep, got, want)
		}
		if got := g.appendDependency([]byte("x"), dep); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("in a list, appendDependency(%s) = %s, want x%s", dep, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("<\u2028\xff")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// FuzzCompactValid checks the fast compactor against json.Compact.
func FuzzCompactValid(f *testing.F) {
	for _, s := range []string{`{ "a" : [ 1 , "x\" \\" , null ] }`, `"\\\\"`, " [\n\t\"<&>\u2028\" ] ", `{"a\\":"b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var want bytes.Buffer
		if json.Compact(&want, src) != nil {
			return
		}
		if got := appendCompactValid(nil, src); !bytes.Equal(got, appendHTMLSafe(nil, want.Bytes())) {
			t.Errorf("appendCompactValid(%q) = %q, want %q", src, got, want.Bytes())
		}
	})
}

type chunkWriter struct {
	chunks [][]byte
	fail   error
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	if w.fail != nil {
		return 0, w.fail
	}
	w.chunks = append(w.chunks, bytes.Clone(p))
	return len(p), nil
}

// TestWriteStreams checks that Write hands the file over in pieces that
// add up to Marshal's output (both encode a state this size on all
// processors, Write a window of resources at a time), and reports a
// failing writer.
func TestWriteStreams(t *testing.T) {
	s := bigState(t, 3000)
	dk := s.Depose(addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r7"}.Instance(addrs.IntKey(3)).Absolute(addrs.RootModule))
	s.Resources[addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r7"}.Absolute(addrs.RootModule)].Instances[addrs.IntKey(3)].Deposed[dk].Status = state.Tainted
	want, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var w chunkWriter
	if err := Write(&w, s); err != nil {
		t.Fatal(err)
	}
	if len(w.chunks) < 2 || !bytes.Equal(bytes.Join(w.chunks, nil), want) {
		t.Errorf("%d chunks adding up to %d bytes, want several adding up to Marshal's %d", len(w.chunks), len(bytes.Join(w.chunks, nil)), len(want))
	}
	broken := errors.New("disk full")
	if err := Write(&chunkWriter{fail: broken}, s); !errors.Is(err, broken) {
		t.Errorf("Write to a failing writer = %v, want %v", err, broken)
	}
}

// TestWriteLargeResources: resources of more instances than one piece of
// a parallel encoding holds are cut into several pieces, and the document
// is the same: a single resource, and several around one without objects,
// with deposed objects at the cuts and a resource recording provider
// instances.
func TestWriteLargeResources(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	build := func(sizes []int) *state.State {
		s := state.New()
		for r, n := range sizes {
			ra := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", r)}.Absolute(addrs.RootModule)
			for i := range n {
				addr := addrs.ObjectAddr{Instance: ra.Instance(addrs.IntKey(i))}
				s.SetObject(addr, &state.Object{AttrsJSON: []byte(fmt.Sprintf(`{"id":"%d-%d"}`, r, i))}, pc)
				if i%runInstances == runInstances-1 || i%runInstances == 0 {
					s.Depose(addr.Instance)
					s.SetObject(addr, &state.Object{AttrsJSON: []byte(`{"id":"new"}`)}, pc)
				}
			}
			if n == 0 {
				s.Resources[ra] = &state.Resource{Addr: ra, ProviderConfig: pc, Instances: map[addrs.InstanceKey]*state.Instance{}}
			}
		}
		return s
	}
	for _, sizes := range [][]int{{3 * runInstances}, {600, 0, 300, 5*runInstances + 7, 1}} {
		s := build(sizes)
		if len(sizes) > 1 {
			// Objects of one resource under provider instances.
			keyed := pc
			keyed.Alias, keyed.Key = "each", addrs.StringKey("k")
			ra := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "r3"}.Absolute(addrs.RootModule)
			s.SetObject(addrs.ObjectAddr{Instance: ra.Instance(addrs.IntKey(2))}, &state.Object{AttrsJSON: []byte(`{"id":"keyed"}`)}, keyed)
		}
		got, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceMarshal(t, s); !bytes.Equal(got, want) {
			t.Fatalf("sizes %v: Marshal differs from the reference (-ref +got):\n%s", sizes, cmp.Diff(string(want), string(got)))
		}
		var w chunkWriter
		if err := Write(&w, s); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(bytes.Join(w.chunks, nil), got) {
			t.Errorf("sizes %v: Write differs from Marshal", sizes)
		}
		line, err := AppendLine(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := Parse(line); err != nil || len(back.Objects()) != len(s.Objects()) {
			t.Errorf("sizes %v: AppendLine reads back with %v", sizes, err)
		}
	}
}

// TestProviderInstances reads a state recording provider configuration
// instances per resource instance (OpenTofu's provider for_each) and checks
// what each object's provider instance is, and that a state without keys
// records the provider once per resource.
func TestProviderInstances(t *testing.T) {
	s := mustParse(t, "opentofu-provider-for-each.tfstate")
	tests := []struct {
		addr, want string
	}{
		{`random_pet.plain`, `provider["registry.opentofu.org/hashicorp/random"]`},
		{`random_pet.regional["eu"]`, `provider["registry.opentofu.org/hashicorp/random"].by_region["eu"]`},
		{`random_pet.regional["us"]`, `provider["registry.opentofu.org/hashicorp/random"].by_region["us"]`},
		{`module.site["b"].terraform_data.x[0]`, `provider["terraform.io/builtin/terraform"].each["b"]`},
		{`module.site["b"].terraform_data.x[1]`, `provider["terraform.io/builtin/terraform"].each`},
	}
	for _, tc := range tests {
		addr, err := addrs.ParseAbsResourceInstanceStr(tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ObjectProvider(addr).String(); got != tc.want {
			t.Errorf("%s: provider %s, want %s", tc.addr, got, tc.want)
		}
	}
	r := s.Resources[mustResource(t, `random_pet.regional`)]
	if got := r.ProviderConfig.String(); got != `provider["registry.opentofu.org/hashicorp/random"].by_region` {
		t.Errorf("resource provider configuration %s, want the block's address without a key", got)
	}

	// Dropping the keys records the provider on the resource again.
	for _, inst := range r.Instances {
		inst.ProviderKey = addrs.NoKey
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"name": "regional",
      "provider": "provider[\"registry.opentofu.org/hashicorp/random\"].by_region",`) {
		t.Errorf("resource without provider instance keys not written with its provider:\n%s", out)
	}
	if strings.Contains(string(out), `by_region[`) {
		t.Error("an instance of random_pet.regional still records its provider")
	}
}

func mustResource(t *testing.T, s string) addrs.AbsResource {
	t.Helper()
	r, err := addrs.ParseAbsResourceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWriteLargeObjects: objects that record many dependencies make pieces
// of a parallel encoding that are cut by their size (runBytes) rather than
// by their number of instances, inside a resource and between resources,
// and the document is the same.
func TestWriteLargeObjects(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	var deps []addrs.AbsResource
	for i := range 300 {
		deps = append(deps, addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("dep%d", i)}.Absolute(addrs.RootModule))
	}
	s := state.New()
	for r, n := range []int{700, 1, 0, 1500, 3} {
		ra := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: fmt.Sprintf("r%d", r)}.Absolute(addrs.RootModule)
		if n == 0 {
			s.Resources[ra] = &state.Resource{Addr: ra, ProviderConfig: pc, Instances: map[addrs.InstanceKey]*state.Instance{}}
		}
		for i := range n {
			addr := addrs.ObjectAddr{Instance: ra.Instance(addrs.IntKey(i))}
			s.SetObject(addr, &state.Object{AttrsJSON: []byte(fmt.Sprintf(`{"id":"%d-%d"}`, r, i)), Dependencies: deps[:i%len(deps)]}, pc)
		}
	}
	est, n := 0, 0
	for _, r := range s.Resources {
		for _, inst := range r.Instances {
			est, n = est+estimateInstance(inst), n+1
		}
	}
	if runInstances*est/n < 2*runBytes {
		t.Fatalf("objects of %d estimated bytes on average would not cut pieces by size", est/n)
	}
	got, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := referenceMarshal(t, s); !bytes.Equal(got, want) {
		t.Fatalf("Marshal differs from the reference (-ref +got):\n%s", cmp.Diff(string(want), string(got)))
	}
	var w chunkWriter
	if err := Write(&w, s); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.Join(w.chunks, nil), got) {
		t.Error("Write differs from Marshal")
	}
}
