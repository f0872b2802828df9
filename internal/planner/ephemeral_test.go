package planner_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// ephemeralProvider is providertest's provider with an ephemeral resource
// type, test_eph: its secret is "secret-" followed by its name; every call
// is recorded in calls ("open NAME", "close NAME").
type ephemeralProvider struct {
	*providertest.Provider
	mu    *sync.Mutex
	calls *[]string
}

func (p ephemeralProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	s, ds := p.Provider.GetProviderSchema(ctx)
	out := *s
	out.EphemeralResources = map[string]provider.Schema{"test_eph": {Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"name":   {Type: cty.String, Required: true},
		"secret": {Type: cty.String, Computed: true, Sensitive: true},
	}}}}
	return &out, ds
}

func (p ephemeralProvider) record(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	*p.calls = append(*p.calls, s)
}

func (p ephemeralProvider) ValidateEphemeralResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}

func (p ephemeralProvider) OpenEphemeralResource(_ context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	name := req.Config.GetAttr("name").AsString()
	p.record("open " + name)
	return provider.OpenEphemeralResponse{Private: []byte(name),
		Result: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "secret": cty.StringVal("secret-" + name)})}
}

func (p ephemeralProvider) RenewEphemeralResource(_ context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	p.record("renew " + string(req.Private))
	return provider.RenewEphemeralResponse{}
}

func (p ephemeralProvider) CloseEphemeralResource(_ context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	p.record("close " + string(req.Private))
	return nil
}

func ephemeralSet(calls *[]string) *provider.Set {
	live := providertest.New()
	mu := &sync.Mutex{}
	return provider.NewSet(provider.Factories{
		providertest.Address(): func() (provider.Interface, error) { return ephemeralProvider{live, mu, calls}, nil },
	})
}

// TestEphemeralResourcesPlan plans configurations with ephemeral resources,
// variables and outputs: ephemeral resources are opened (the one that
// refers to the other after it) and closed in the reverse order, have no
// change and no state; ephemeral values go where OpenTofu lets them and
// are refused elsewhere.
func TestEphemeralResourcesPlan(t *testing.T) {
	cases := []struct {
		name, src string
		vars      map[string]cty.Value
		calls     []string
		err       string // a diagnostic summary the plan must report
	}{
		{name: "opened in order, closed in reverse", src: `
ephemeral "test_eph" "a" { name = "a" }
ephemeral "test_eph" "b" { name = "b-${length(ephemeral.test_eph.a.secret)}" }
locals { l = ephemeral.test_eph.b.secret }
ephemeral "test_eph" "c" {
  count = 2
  name  = "c-${local.l}"
}
resource "test_thing" "t" { name = "plain" }
`, calls: []string{"open a", "open b-8", "open c-secret-b-8", "open c-secret-b-8", "close c-secret-b-8", "close c-secret-b-8", "close b-8", "close a"}},
		{name: "not in a managed resource's argument", src: `
ephemeral "test_eph" "a" { name = "a" }
resource "test_thing" "t" { name = ephemeral.test_eph.a.name }
`, err: "Ephemeral value used in non-ephemeral context"},
		{name: "ephemeral variable not in an argument", src: `
variable "v" {
  type      = string
  ephemeral = true
}
resource "test_thing" "t" { name = var.v }
`, vars: map[string]cty.Value{"v": cty.StringVal("x")}, err: "Ephemeral value used in non-ephemeral context"},
		{name: "not in for_each", src: `
variable "v" {
  type      = set(string)
  ephemeral = true
}
resource "test_thing" "t" {
  for_each = var.v
  name     = each.key
}
`, vars: map[string]cty.Value{"v": cty.SetVal([]cty.Value{cty.StringVal("x")})}, err: "Invalid for_each argument"},
		{name: "not in count", src: `
ephemeral "test_eph" "a" { name = "a" }
resource "test_thing" "t" { count = length(ephemeral.test_eph.a.name) }
`, err: "Invalid count argument"},
		{name: "not in a root output", src: `
ephemeral "test_eph" "a" { name = "a" }
output "o" { value = ephemeral.test_eph.a.name }
`, err: "Output does not allow ephemeral value"},
		{name: "no ephemeral root output", src: `
output "o" {
  value     = "x"
  ephemeral = true
}
`, err: "Invalid output configuration"},
		{name: "ephemeralasnull", src: `
ephemeral "test_eph" "a" { name = "a" }
resource "test_thing" "t" { name = coalesce(ephemeralasnull(ephemeral.test_eph.a.name), "null") }
`, calls: []string{"open a", "close a"}},
		{name: "terraform.applying is false while planning", src: `
resource "test_thing" "t" { name = ephemeralasnull(terraform.applying) == null ? "ephemeral" : "not" }
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			given := map[string]planner.InputValue{}
			for k, v := range tc.vars {
				given[k] = planner.InputValue{Value: v, SourceType: "-var"}
			}
			p, ds := planner.Make(context.Background(), loadConfig(t, tc.src), state.New(), ephemeralSet(&calls), planner.Options{Variables: given})
			if tc.err != "" {
				if !hasSummary(ds, tc.err) {
					t.Fatalf("diagnostics %v, want %q", ds, tc.err)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if tc.calls != nil && strings.Join(calls, ", ") != strings.Join(tc.calls, ", ") {
				t.Errorf("calls\n got %s\nwant %s", strings.Join(calls, ", "), strings.Join(tc.calls, ", "))
			}
			for _, c := range p.Changes {
				if c.Addr.Resource.Resource.Mode == addrs.Ephemeral {
					t.Errorf("a change for ephemeral %s", c.Addr)
				}
				if c.Addr.Resource.Resource.Type == "test_thing" {
					if name := c.After.GetAttr("name"); tc.name == "ephemeralasnull" && !name.RawEquals(cty.StringVal("null")) {
						t.Errorf("name = %#v, want the null that ephemeralasnull gives", name)
					} else if tc.name == "terraform.applying is false while planning" && !name.RawEquals(cty.StringVal("ephemeral")) {
						t.Errorf("name = %#v: terraform.applying is not ephemeral", name)
					}
				}
			}
			if p.PriorState.Resource(addrs.Resource{Mode: addrs.Ephemeral, Type: "test_eph", Name: "a"}.Absolute(addrs.RootModule)) != nil {
				t.Error("the ephemeral resource is in the state")
			}
		})
	}
}

func hasSummary(ds diag.Diagnostics, summary string) bool {
	for _, d := range ds {
		if d.Severity == diag.Error && d.Summary == summary {
			return true
		}
	}
	return false
}
