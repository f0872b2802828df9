package apply

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
)

// A create's intent holds what identifies the object it makes: the planned
// values that are known, not null and not sensitive, and the known
// attributes of the identity the provider planned, when it planned one.
func TestIntentOf(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.Managed, Type: "test_file", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
	pc := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider("test")}
	sch := &provider.Block{Attributes: map[string]*provider.Attribute{
		"id": {Type: cty.String, Optional: true, Computed: true}, "content": {Type: cty.String, Required: true},
		"secret": {Type: cty.String, Optional: true, Sensitive: true}, "note": {Type: cty.String, Optional: true},
		"tag": {Type: cty.String, Optional: true},
	}}
	planned := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("alpha"), "content": cty.StringVal("aye"), "secret": cty.StringVal("s"),
		"note": cty.NullVal(cty.String), "tag": cty.StringVal("t").Mark(marks.Sensitive),
	})
	raw := func(m map[string]string) map[string]json.RawMessage {
		if m == nil {
			return nil
		}
		out := map[string]json.RawMessage{}
		for k, v := range m {
			out[k] = json.RawMessage(v)
		}
		return out
	}
	tests := map[string]struct {
		identity cty.Value
		want     map[string]string
	}{
		"planned identity":  {cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("alpha"), "region": cty.StringVal("eu")}), map[string]string{"id": `"alpha"`, "region": `"eu"`}},
		"partly known":      {cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("alpha"), "region": cty.UnknownVal(cty.String)}), map[string]string{"id": `"alpha"`}},
		"none planned":      {cty.NilVal, nil},
		"null":              {cty.NullVal(cty.Object(map[string]cty.Type{"id": cty.String})), nil},
		"nothing known yet": {cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String)}), nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			in := intentOf(addr, pc, sch, planned, tt.identity)
			if diff := cmp.Diff(raw(map[string]string{"id": `"alpha"`, "content": `"aye"`}), in.Values); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(raw(tt.want), in.Identity); diff != "" {
				t.Errorf("identity (-want +got):\n%s", diff)
			}
		})
	}
}
