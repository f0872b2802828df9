package jsonformat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/state"
)

func TestMarshalOutputs(t *testing.T) {
	outputs := map[string]state.OutputValue{
		"name": {Value: cty.StringVal("web")},
		"key":  {Value: cty.ObjectVal(map[string]cty.Value{"id": cty.NumberIntVal(1)}), Sensitive: true},
	}
	tests := []struct {
		name   string
		output string
		want   string
		wantOK bool
	}{
		{name: "one output, its value alone", output: "name", want: `"web"`, wantOK: true},
		{name: "a sensitive one too", output: "key", want: `{"id":1}`, wantOK: true},
		{name: "missing", output: "nope", wantOK: false},
		{name: "all, with type and sensitivity", output: "", wantOK: true, want: `{
  "key": {
    "sensitive": true,
    "type": [
      "object",
      {
        "id": "number"
      }
    ],
    "value": {
      "id": 1
    }
  },
  "name": {
    "sensitive": false,
    "type": "string",
    "value": "web"
  }
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := MarshalOutputs(outputs, tt.output)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("MarshalOutputs (-want +got):\n%s", diff)
			}
		})
	}
}
