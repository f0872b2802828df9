package jsonformat

import (
	"encoding/json"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// TestProviderSchemaKinds: every kind of schema a provider has is
// written, under OpenTofu's and Terraform's names, with what an
// attribute's deprecation and write-only flag say.
func TestProviderSchemaKinds(t *testing.T) {
	block := func(a *provider.Attribute) provider.Schema {
		return provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{"a": a}}}
	}
	s := &provider.Schemas{
		Provider:           provider.Schema{Block: &provider.Block{}},
		ResourceTypes:      map[string]provider.Schema{"p_r": block(&provider.Attribute{Type: cty.String, Optional: true, WriteOnly: true})},
		EphemeralResources: map[string]provider.Schema{"p_e": block(&provider.Attribute{Type: cty.String, Computed: true})},
		ListResources:      map[string]provider.Schema{"p_r": block(&provider.Attribute{Type: cty.String, Optional: true})},
		Actions:            map[string]provider.Schema{"p_a": block(&provider.Attribute{Type: cty.String, Required: true})},
		DataSources: map[string]provider.Schema{"p_d": block(&provider.Attribute{Type: cty.Number, Optional: true,
			Deprecated: true, DeprecationMessage: "use b"})},
	}
	got, err := json.Marshal(NewProviderSchema(addrs.NewDefaultProvider("p"), s, nil))
	if err != nil {
		t.Fatal(err)
	}
	// Every block and attribute says its (empty) description is plain
	// text, as OpenTofu writes it.
	want := `{"provider":{"version":0,"block":{"description_kind":"plain"}},` +
		`"resource_schemas":{"p_r":{"version":0,"block":{"attributes":{"a":{"type":"string","description_kind":"plain","optional":true,"write_only":true}},"description_kind":"plain"}}},` +
		`"data_source_schemas":{"p_d":{"version":0,"block":{"attributes":{"a":{"type":"number","description_kind":"plain","deprecated":true,"deprecation_message":"use b","optional":true}},"description_kind":"plain"}}},` +
		`"ephemeral_resource_schemas":{"p_e":{"version":0,"block":{"attributes":{"a":{"type":"string","description_kind":"plain","computed":true}},"description_kind":"plain"}}},` +
		`"list_resource_schemas":{"p_r":{"version":0,"block":{"attributes":{"a":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"}}},` +
		`"action_schemas":{"p_a":{"block":{"attributes":{"a":{"type":"string","description_kind":"plain","required":true}},"description_kind":"plain"}}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
