package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// TestQueryJSONLeavesOutSecrets: rig query -json writes neither the
// attributes a resource's schema declares sensitive nor the sensitive
// values of a list block's config (Terraform 1.16 writes both); it names
// them in sensitive_attribute_paths, as Terraform names a config's.
func TestQueryJSONLeavesOutSecrets(t *testing.T) {
	block := &provider.Block{Attributes: map[string]*provider.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"password": {Type: cty.String, Computed: true, Sensitive: true},
	}}
	res := plan.ListResult{
		List:   &config.List{Type: "test_user", Name: "all"},
		Addr:   addrs.Resource{Mode: addrs.List, Type: "test_user", Name: "all"}.Instance(addrs.NoKey).Absolute(addrs.RootModule),
		Schema: provider.Schema{Block: block, IdentityVersion: 1},
		Objects: []provider.ListedObject{{
			DisplayName: "alice",
			Identity:    cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("alice")}),
			Resource:    cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("alice"), "password": cty.StringVal("HUNTER2-OBJECT")}),
		}},
	}
	var buf bytes.Buffer
	v := &QueryJSONView{View: NewJSONView(&buf)}
	v.PreList(res, cty.ObjectVal(map[string]cty.Value{
		"name":  cty.StringVal("a"),
		"token": cty.StringVal("HUNTER2-CONFIG").Mark(marks.Sensitive),
	}))
	v.PostList(res)
	out := buf.String()
	if strings.Contains(out, "HUNTER2") {
		t.Errorf("the stream holds a secret:\n%s", out)
	}
	for _, want := range []string{
		`"input_config":{"name":"a","token":null}`, `"sensitive_attribute_paths":[".token"]`,
		`"resource_object":{"id":"alice","password":null}`, `"sensitive_attribute_paths":[".password"]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the stream lacks %s:\n%s", want, out)
		}
	}
}
