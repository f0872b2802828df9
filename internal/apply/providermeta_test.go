package apply

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/plan"
)

const providerMetaConfig = `-- main.tf --
resource "test_thing" "root" {
  key = "root"
}
module "m" {
  source = "./m"
}
-- m/main.tf --
terraform {
  provider_meta "test" {
    module_name = "mod-m"
  }
}
resource "test_thing" "x" {
  key = "x"
}
`

// TestProviderMeta sends each module's provider_meta block with the
// operations on its resources, creates and deletes alike.
func TestProviderMeta(t *testing.T) {
	s := newScenario(t)
	_, ops := s.mustStep(providerMetaConfig, plan.NormalMode)
	got := map[string]string{}
	for _, op := range ops {
		got[op.String()] = op.Meta
	}
	want := map[string]string{"create root": "", "create x": "mod-m"}
	if !mapsEqual(got, want) {
		t.Errorf("provider_meta by operation = %v, want %v", got, want)
	}
	_, ops = s.mustStep(providerMetaConfig, plan.DestroyMode)
	got = map[string]string{}
	for _, op := range ops {
		got[op.String()] = op.Meta
	}
	want = map[string]string{"delete root": "", "delete x": "mod-m"}
	if !mapsEqual(got, want) {
		t.Errorf("provider_meta by operation = %v, want %v", got, want)
	}
}

func TestProviderMetaErrors(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"provider without a provider_meta schema", `
terraform {
  provider_meta "terraform" {
    module_name = "x"
  }
}
resource "terraform_data" "d" {}
`, "Provider terraform.io/builtin/terraform doesn't support provider_meta; The resource terraform_data.d belongs to a provider that doesn't support provider_meta blocks"},
		{"argument not in the schema", `
terraform {
  provider_meta "test" {
    nope = "x"
  }
}
resource "test_thing" "a" {}
`, `An argument named "nope" is not expected here.`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScenario(t)
			_, ds := s.plan(tc.config, plan.NormalMode)
			if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.want) {
				t.Fatalf("plan diagnostics %v, want an error containing %q", ds.Err(), tc.want)
			}
			if n := len(ds); n != 1 {
				t.Errorf("%d diagnostics, want the error once: %v", n, ds)
			}
		})
	}
}
