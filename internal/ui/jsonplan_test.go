package ui

import (
	"encoding/json"
	"testing"

	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
)

func TestMarshalPlanJSON(t *testing.T) {
	cfg := &jsonformat.Config{
		ProviderConfigs: map[string]jsonformat.ConfigProvider{
			"terraform": {Name: "terraform", FullName: "terraform.io/builtin/terraform"},
		},
		RootModule: jsonformat.ConfigModule{
			Resources: []jsonformat.ConfigResource{{
				Address: "terraform_data.a", Mode: "managed", Type: "terraform_data", Name: "a", ProviderConfigKey: "terraform",
				Expressions: map[string]json.RawMessage{"input": json.RawMessage(`{"references":["var.env"]}`)},
			}},
			Variables: map[string]jsonformat.ConfigVariable{"env": {Default: json.RawMessage(`"dev"`)}},
		},
	}
	got, err := MarshalPlanJSON(mixedPlan(), testSchemas(), JSONOptions{Version: "0.1.0", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/plan.json", indentJSON(t, got))

	minimal, err := MarshalPlanJSON(&plan.Plan{}, nil, JSONOptions{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"format_version":"1.2","terraform_version":"0.1.0","planned_values":{"root_module":{}},"configuration":{"root_module":{}},"errored":false}`
	if string(minimal) != want {
		t.Errorf("empty plan JSON:\n got %s\nwant %s", minimal, want)
	}
}
