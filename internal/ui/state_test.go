package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// showState is priorState plus objects that exercise the state renderers:
// a module, recorded sensitive paths, an object with a nested block.
func showState() *state.State {
	s := priorState()
	obj, err := state.NewObject(dataVal(map[string]cty.Value{
		"id":    cty.StringVal("m-id"),
		"input": cty.ObjectVal(map[string]cty.Value{"token": cty.StringVal("t0k3n"), "user": cty.StringVal("ann")}),
	}), dataType())
	if err != nil {
		panic(err)
	}
	obj.SensitiveAttributes = json.RawMessage(`[[{"type":"get_attr","value":"input"},{"type":"get_attr","value":"token"}]]`)
	mod := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "m"}.Absolute(`module.app["x"]`).Instance(addrs.NoKey)
	s.SetObject(addrs.ObjectAddr{Instance: mod}, obj, addrs.AbsProviderConfig{Provider: builtinProvider})
	s.Outputs["list"] = state.OutputValue{Value: cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})}
	s.Outputs["obj"] = state.OutputValue{Value: cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1), "s": cty.StringVal("x\ny")})}
	return s
}

func TestRenderState(t *testing.T) {
	var buf bytes.Buffer
	if err := RenderState(&buf, showState(), testSchemas(), RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("---- without schemas\n")
	if err := RenderState(&buf, showState(), nil, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("---- state show test_instance.web[\"blue\"]\n")
	if err := RenderStateInstance(&buf, showState(), managed("test_instance", "web", addrs.StringKey("blue")), testSchemas(), RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("---- empty\n")
	if err := RenderState(&buf, state.New(), nil, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/state.golden", buf.Bytes())

	if err := RenderStateInstance(&buf, showState(), managed("terraform_data", "nope", addrs.NoKey), nil, RenderOptions{}); err == nil {
		t.Error("RenderStateInstance of a missing instance: no error")
	}
}

func TestRenderOutputs(t *testing.T) {
	outs := showState().Outputs
	var buf bytes.Buffer
	if err := RenderApplyOutputs(&buf, outs, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/outputs.golden", buf.Bytes())

	buf.Reset()
	if err := RenderApplyOutputs(&buf, nil, RenderOptions{}); err != nil || buf.Len() != 0 {
		t.Errorf("no outputs: wrote %q, err %v", buf.String(), err)
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		name string
		v    cty.Value
		want string
	}{
		{"string", cty.StringVal(`a "b"`), `"a \"b\""`},
		{"number", cty.NumberFloatVal(1.5), "1.5"},
		{"bool", cty.True, "true"},
		{"null string", cty.NullVal(cty.String), "tostring(null)"},
		{"null list", cty.NullVal(cty.List(cty.String)), "tolist(null) /* of string */"},
		{"unknown", cty.UnknownVal(cty.String), "(known after apply)"},
		{"sensitive", cty.StringVal("x").Mark("sensitive"), "(sensitive value)"},
		{"list", cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), "tolist([\n  1,\n])"},
		{"empty tuple", cty.EmptyTupleVal, "[]"},
		{"map", cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}), "tomap({\n  \"k\" = \"v\"\n})"},
		{"heredoc", cty.StringVal("a\nb"), "<<EOT\na\nb\nEOT"},
		{"nested heredoc", cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("EOT\nb")}), "{\n  \"s\" = <<-EOT_\n  EOT\n  b\n  EOT_\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatValue(tt.v, 0); got != tt.want {
				t.Errorf("FormatValue = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMarshalStateJSON(t *testing.T) {
	got, err := MarshalStateJSON(showState(), testSchemas(), JSONOptions{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/state.json", indentJSON(t, got))

	empty, err := MarshalStateJSON(state.New(), nil, JSONOptions{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if string(empty) != `{"format_version":"1.0"}` {
		t.Errorf("empty state JSON = %s", empty)
	}
}

// indentJSON checks that raw is one valid JSON document on one line and
// returns it indented, for golden files a reader can check.
func indentJSON(t *testing.T, raw []byte) []byte {
	t.Helper()
	if strings.Contains(string(raw), "\n") {
		t.Errorf("JSON document spans lines")
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, raw)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
