package planner

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// The value expressions see of a list block instance is Terraform's:
// data (display_name, identity, state for each object) and config; the
// attributes the schema declares sensitive stay sensitive.
func TestListValue(t *testing.T) {
	sch := provider.Schema{
		Block: &provider.Block{Attributes: map[string]*provider.Attribute{
			"id": {Type: cty.String, Computed: true}, "password": {Type: cty.String, Optional: true, Sensitive: true},
		}},
		Identity: &provider.Block{Attributes: map[string]*provider.Attribute{"id": {Type: cty.String, Required: true}}},
	}
	id := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("a")})
	cfg := cty.ObjectVal(map[string]cty.Value{"prefix": cty.StringVal("x")})
	res := plan.ListResult{
		List: &config.List{Type: "t_x", Name: "n"}, Addr: addrs.Resource{Mode: addrs.List, Type: "t_x", Name: "n"}.Instance(addrs.NoKey).Absolute(addrs.RootModule),
		Config: cfg, Schema: sch,
		Objects: []provider.ListedObject{
			{Identity: id, DisplayName: "A", Resource: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("a"), "password": cty.StringVal("s3cret")})},
			{Identity: id, DisplayName: "B"},
		},
	}
	v := listValue(res)
	if !v.GetAttr("config").RawEquals(cfg) {
		t.Errorf("config %#v", v.GetAttr("config"))
	}
	data := v.GetAttr("data")
	if data.LengthInt() != 2 {
		t.Fatalf("data %#v", data)
	}
	first := data.Index(cty.NumberIntVal(0))
	if first.GetAttr("display_name").AsString() != "A" || !first.GetAttr("identity").RawEquals(id) {
		t.Errorf("first object %#v", first)
	}
	if pw := first.GetAttr("state").GetAttr("password"); !pw.HasMark(marks.Sensitive) {
		t.Errorf("a sensitive attribute of a listed object is not marked: %#v", pw)
	}
	if st := data.Index(cty.NumberIntVal(1)).GetAttr("state"); !st.IsNull() {
		t.Errorf("state of an object listed without its attributes: %#v", st)
	}
}
