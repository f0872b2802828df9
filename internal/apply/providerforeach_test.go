package apply

import (
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// regionsConfig configures one instance of the test provider per region
// (var.regions) and places each instance of test_thing.a with the region
// its map value names.
const regionsConfig = `
variable "regions" {
  default = ["eu", "us"]
}
variable "things" {
  default = { a = "eu", b = "us", c = "eu" }
}
provider "test" {
  alias    = "r"
  for_each = toset(var.regions)
  region   = each.key
}
resource "test_thing" "a" {
  for_each = var.things
  provider = test.r[each.value]
  key      = each.key
}
`

// providerOf returns which provider instance (region) made each op, by key.
func providerOf(ops []providertest.Op) map[string]string {
	out := map[string]string{}
	for _, op := range ops {
		out[op.Action.String()+" "+op.Key] = op.Provider
	}
	return out
}

func keyedThing(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, err := addrs.ParseAbsResourceInstanceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestProviderForEachPlacesInstances(t *testing.T) {
	s := newScenario(t)
	s.perInstance = true
	_, ops := s.mustStep(regionsConfig, plan.NormalMode)
	want := map[string]string{"create a": "eu", "create b": "us", "create c": "eu"}
	if got := providerOf(ops); !mapsEqual(got, want) {
		t.Errorf("provider instances by operation = %v, want %v", got, want)
	}
	if got := s.prov.Configured(); !slices.Equal(sortedCopy(got), []string{"eu", "eu", "us", "us"}) {
		// One configured instance per provider instance in the plan, and again in the apply.
		t.Errorf("configured instances = %v, want eu and us once per run", got)
	}
	for k, region := range map[string]string{"a": "eu", "b": "us", "c": "eu"} {
		addr := keyedThing(t, `test_thing.a["`+k+`"]`)
		want := `provider["registry.terraform.io/hashicorp/test"].r["` + region + `"]`
		if got := s.state.ObjectProvider(addr).String(); got != want {
			t.Errorf("%s recorded with provider %s, want %s", addr, got, want)
		}
	}
	out, err := statefile.Marshal(s.state)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"provider": "provider[\"registry.terraform.io/hashicorp/test\"].r[\"us\"]",`) {
		t.Errorf("state file does not record the provider instance per object:\n%s", out)
	}

	// Nothing changes on the next plan.
	p, ds := s.plan(regionsConfig, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if p.HasChanges() {
		t.Errorf("second plan has changes: %v", p.Changes)
	}
}

func TestProviderForEachOrphans(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		wantErr string // "" when the apply succeeds
		wantOps map[string]string
	}{
		{"resource instance removed, its provider instance kept",
			strings.Replace(regionsConfig, `c = "eu" }`, `}`, 1), "",
			map[string]string{"delete c": "eu"}},
		{"resource removed, provider instances kept",
			regionsConfig[:strings.Index(regionsConfig, `resource "test_thing"`)], "",
			map[string]string{"delete a": "eu", "delete b": "us", "delete c": "eu"}},
		{"provider instance removed with its resource instances",
			strings.NewReplacer(`["eu", "us"]`, `["us"]`, `a = "eu", b = "us", c = "eu"`, `b = "us"`).Replace(regionsConfig),
			`To work with test_thing.a["a"] its original provider instance at provider["registry.terraform.io/hashicorp/test"].r["eu"] is required, but it has been removed.`, nil},
		{"resource instance moved to another provider instance",
			strings.Replace(regionsConfig, `c = "eu" }`, `c = "us" }`, 1), "",
			map[string]string{"update c": "us"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScenario(t)
			s.perInstance = true
			s.mustStep(regionsConfig, plan.NormalMode)
			if tc.name == "resource instance moved to another provider instance" {
				// The object is planned (and refreshed) by the new
				// instance: make the change visible with a new value.
				tc.config = strings.Replace(tc.config, `key      = each.key`, "key      = each.key\n  value    = each.key == \"c\" ? each.value : null", 1)
			}
			p, ds := s.plan(tc.config, plan.NormalMode)
			if tc.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.wantErr) {
					t.Fatalf("plan diagnostics %v, want an error containing %q", ds.Err(), tc.wantErr)
				}
				if !strings.Contains(ds.Err().Error(), "Provider instance not present") {
					t.Errorf("error is not \"Provider instance not present\": %v", ds.Err())
				}
				return
			}
			applyByInstance(t, s, tc.config, p, ds, tc.wantOps)
		})
	}
}

func TestProviderForEachKeys(t *testing.T) {
	const providers = `
provider "test" {
  alias    = "r"
  for_each = { first = "eu", second = "us" }
  region   = each.value
}
`
	tests := []struct {
		name    string
		config  string
		wantOps map[string]string
		wantErr string
	}{
		{"count.index", providers + `
resource "test_thing" "a" {
  count    = 2
  provider = test.r[count.index == 0 ? "first" : "second"]
  key      = "a${count.index}"
}`, map[string]string{"create a0": "eu", "create a1": "us"}, ""},
		{"literal key", providers + `
resource "test_thing" "a" {
  provider = test.r["second"]
  key      = "a"
}`, map[string]string{"create a": "us"}, ""},
		{"key from another resource", providers + `
resource "test_thing" "sel" {
  key = "first"
}
resource "test_thing" "a" {
  provider = test.r[test_thing.sel.key]
  key      = "a"
}`, map[string]string{"create first": "", "create a": "eu"}, ""},
		{"module instances", `-- main.tf --` + providers + `
module "m" {
  source    = "./m"
  for_each  = toset(["first", "second"])
  providers = { test = test.r[each.key] }
  name      = each.key
}
-- m/main.tf --
variable "name" {}
resource "test_thing" "x" {
  key = "x-${var.name}"
}
module "inner" {
  source = "./inner"
  name   = var.name
}
-- m/inner/main.tf --
variable "name" {}
resource "test_thing" "y" {
  key = "y-${var.name}"
}
`, map[string]string{"create x-first": "eu", "create x-second": "us", "create y-first": "eu", "create y-second": "us"}, ""},
		{"key not in the provider's for_each", providers + `
resource "test_thing" "a" {
  provider = test.r["third"]
}`, nil, `To work with test_thing.a its original provider instance at provider["registry.terraform.io/hashicorp/test"].r["third"] is required`},
		{"unknown key", providers + `
resource "test_thing" "sel" {
  key = "first"
}
resource "test_thing" "a" {
  provider = test.r[test_thing.sel.id]
}`, nil, "The provider instance key for test_thing.a depends on values that cannot be determined until apply"},
		{"sensitive key", providers + `
resource "test_thing" "a" {
  provider = test.r[sensitive("first")]
}`, nil, "A provider instance key must not be derived from a sensitive value."},
		{"for_each referring to a resource", `
resource "test_thing" "sel" {
  key = "first"
}
provider "test" {
  alias    = "r"
  for_each = toset([test_thing.sel.key])
}
resource "test_thing" "a" {
  provider = test.r["first"]
}`, nil, "Unable to use test_thing.sel in static context, which is required by provider.test.r.for_each"},
		{"for_each through a local referring to a resource", `
resource "test_thing" "sel" {
  key = "first"
}
locals {
  keys = toset([test_thing.sel.key])
}
provider "test" {
  alias    = "r"
  for_each = local.keys
}
resource "test_thing" "a" {
  provider = test.r["first"]
}`, nil, "provider.test.r.for_each depends on local.keys which is not available"},
		{"null for_each", `
variable "keys" {
  type    = set(string)
  default = null
}
provider "test" {
  alias    = "r"
  for_each = var.keys
}
resource "test_thing" "a" {
  count    = 3
  provider = test.r["first"]
}
resource "test_thing" "b" {
  provider = test.r["first"]
}`, nil, `The given "for_each" argument value is unsuitable: the given "for_each" argument value is null.`},
		{"sensitive for_each", `
variable "keys" {
  default   = ["first"]
  sensitive = true
}
provider "test" {
  alias    = "r"
  for_each = toset(var.keys)
}
resource "test_thing" "a" {
  provider = test.r["first"]
}`, nil, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScenario(t)
			s.perInstance = true
			p, ds := s.plan(tc.config, plan.NormalMode)
			if tc.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.wantErr) {
					t.Fatalf("plan diagnostics %v, want an error containing %q", ds.Err(), tc.wantErr)
				}
				if n := strings.Count(ds.Err().Error(), tc.wantErr); n != 1 {
					t.Errorf("the error is reported %d times, want once:\n%v", n, ds.Err())
				}
				return
			}
			applyByInstance(t, s, tc.config, p, ds, tc.wantOps)
		})
	}
}

// The built-in provider can be configured per instance too.
func TestProviderForEachBuiltIn(t *testing.T) {
	const src = `
provider "terraform" {
  alias    = "x"
  for_each = toset(["a", "b"])
}
resource "terraform_data" "d" {
  for_each = toset(["a", "b"])
  provider = terraform.x[each.key]
  input    = each.key
}
`
	s := newScenario(t)
	s.mustStep(src, plan.NormalMode)
	for _, k := range []string{"a", "b"} {
		addr := keyedThing(t, `terraform_data.d["`+k+`"]`)
		want := `provider["terraform.io/builtin/terraform"].x["` + k + `"]`
		if got := s.state.ObjectProvider(addr).String(); got != want {
			t.Errorf("%s recorded with %s, want %s", addr, got, want)
		}
	}
	p, ds := s.plan(src, plan.DestroyMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if _, ds := s.apply(src, p); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if !s.state.Empty() {
		t.Errorf("objects left after destroy: %v", s.state.Objects())
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// Refresh-only and destroy plans go through the provider instances the
// state records, and refuse one the configuration no longer declares.
func TestProviderForEachRefreshAndDestroy(t *testing.T) {
	s := newScenario(t)
	s.perInstance = true
	s.mustStep(regionsConfig, plan.NormalMode)
	if _, ds := s.plan(regionsConfig, plan.RefreshOnlyMode); ds.HasErrors() {
		t.Fatalf("refresh-only plan: %v", ds.Err())
	}
	dropped := strings.Replace(regionsConfig, `["eu", "us"]`, `["us"]`, 1)
	for _, mode := range []plan.Mode{plan.RefreshOnlyMode, plan.DestroyMode} {
		if _, ds := s.plan(dropped, mode); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Provider instance not present") {
			t.Errorf("mode %v without the eu instance: %v, want \"Provider instance not present\"", mode, ds.Err())
		}
	}
	_, ops := s.mustStep(regionsConfig, plan.DestroyMode)
	want := map[string]string{"delete a": "eu", "delete b": "us", "delete c": "eu"}
	if got := providerOf(ops); !mapsEqual(got, want) {
		t.Errorf("destroy by provider instance = %v, want %v", got, want)
	}
}

// A module instance removed from its call's for_each is destroyed through
// the provider instance its call passed.
func TestProviderForEachModuleInstanceRemoved(t *testing.T) {
	const src = `-- main.tf --
variable "sites" {
  default = ["first", "second"]
}
provider "test" {
  alias    = "r"
  for_each = { first = "eu", second = "us" }
  region   = each.value
}
module "m" {
  source    = "./m"
  for_each  = toset(var.sites)
  providers = { test = test.r[each.key] }
  name      = each.key
}
-- m/main.tf --
variable "name" {}
resource "test_thing" "x" {
  key = "x-${var.name}"
}
`
	s := newScenario(t)
	s.perInstance = true
	s.mustStep(src, plan.NormalMode)
	_, ops := s.mustStep(strings.Replace(src, `["first", "second"]`, `["first"]`, 1), plan.NormalMode)
	if got, want := providerOf(ops), map[string]string{"delete x-second": "us"}; !mapsEqual(got, want) {
		t.Errorf("operations by provider instance = %v, want %v", got, want)
	}
	gone := strings.Replace(src, `, second = "us"`, ``, 1)
	gone = strings.Replace(gone, `["first", "second"]`, `["first"]`, 1)
	s.mustStep(src, plan.NormalMode)
	if _, ds := s.plan(gone, plan.NormalMode); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), `To work with module.m["second"].test_thing.x its original provider instance at provider["registry.terraform.io/hashicorp/test"].r["second"] is required`) {
		t.Errorf("plan without the second provider instance: %v", ds.Err())
	}
}

// applyByInstance applies p, planned from config without errors (ds), and
// checks which provider instance carried out each operation.
func applyByInstance(t *testing.T, s *scenario, config string, p *plan.Plan, ds diag.Diagnostics, want map[string]string) {
	t.Helper()
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	ops, ds := s.apply(config, p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got := providerOf(ops); !mapsEqual(got, want) {
		t.Errorf("operations by provider instance = %v, want %v", got, want)
	}
}
