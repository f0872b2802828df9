package planner_test

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

// TestEphemeralRecordedValues gives the ephemeral resources, outside a
// run (the console), the value OpenTofu gives them: a known object of
// unknown attributes marked ephemeral, wholly unknown with count, and
// opens none of them.
func TestEphemeralRecordedValues(t *testing.T) {
	cfg := loadConfig(t, `
ephemeral "test_token" "one" { name = "one" }
ephemeral "test_token" "many" {
  count = 2
  name  = "many"
}
`)
	live := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): live.Factory()})
	defer set.Close()
	rv := planner.StateValues(context.Background(), cfg, state.New(), set)
	res := func(name string) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.Ephemeral, Type: "test_token", Name: name}.Absolute(addrs.RootModule)
	}
	one := rv.ResourceValue(res("one"))
	for _, tc := range []struct {
		what, got, want string
	}{
		{"the resource", ui.FormatValue(one, 0), "(ephemeral value)"},
		{"an attribute", ui.FormatValue(one.GetAttr("secret"), 0), "(known after apply)"},
		{"a resource with count", ui.FormatValue(rv.ResourceValue(res("many")), 0), "(known after apply)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	if calls := live.Ephemerals(); len(calls) > 0 {
		t.Errorf("opened outside a run: %v", calls)
	}
}
