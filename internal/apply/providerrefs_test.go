package apply

import (
	"testing"

	"github.com/rig-iac/rig/internal/plan"
)

// TestProviderConfiguredFromResource checks that a provider configuration
// referring to a resource is configured only once that resource exists:
// the resource it configures is created after it, by an instance
// configured with its final value, and destroyed before it.
func TestProviderConfiguredFromResource(t *testing.T) {
	const src = `
resource "test_thing" "region" {
  key   = "region"
  value = "eu"
}
provider "test" {
  alias  = "eu"
  region = test_thing.region.output
}
resource "test_thing" "a" {
  provider = test.eu
  key      = "a"
}
`
	s := newScenario(t)
	s.perInstance = true
	_, ops := s.mustStep(src, plan.NormalMode)
	checkSequence(t, ops, "create region; create a")
	if got := providerOf(ops)["create a"]; got != "eu" {
		t.Errorf("test_thing.a was created by the provider configured with region %q, want \"eu\"", got)
	}
	_, ops = s.mustStep(src, plan.DestroyMode)
	checkSequence(t, ops, "delete a; delete region")
}
