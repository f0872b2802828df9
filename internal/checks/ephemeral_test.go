package checks_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
)

// TestEphemeralResourceChecks records the conditions of an ephemeral
// resource, writes them in the plan JSON with mode "ephemeral" as OpenTofu
// does, and forgets them (back to unknown, instances kept) for an apply.
func TestEphemeralResourceChecks(t *testing.T) {
	cfg := load(t, `
ephemeral "random_password" "p" {
  length = 12
  lifecycle {
    postcondition {
      condition     = length(self.result) == 12
      error_message = "post"
    }
  }
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = terraform.workspace != ""
      error_message = "pre"
    }
  }
}
`)
	s := checks.NewState(cfg)
	p := addrs.Resource{Mode: addrs.Ephemeral, Type: "random_password", Name: "p"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
	a := addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
	s.ExpandIn(addrs.RootModule, checks.ResourceObject(p).Config, []checks.Object{checks.ResourceObject(p)})
	s.ExpandIn(addrs.RootModule, checks.ResourceObject(a).Config, []checks.Object{checks.ResourceObject(a)})
	s.Report(checks.ResourceObject(p), checks.Postcondition, 0, checks.Fail, "post")
	s.Report(checks.ResourceObject(a), checks.Precondition, 0, checks.Pass, "")
	b, err := json.Marshal(s.PlanJSON())
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"address": map[string]any{"kind": "resource", "mode": "ephemeral", "type": "random_password", "name": "p", "to_display": "ephemeral.random_password.p"},
			"status": "fail", "instances": []any{map[string]any{"address": map[string]any{"to_display": "ephemeral.random_password.p"}, "status": "fail",
				"problems": []any{map[string]any{"message": "post"}}}}},
		{"address": map[string]any{"kind": "resource", "mode": "managed", "type": "terraform_data", "name": "a", "to_display": "terraform_data.a"},
			"status": "pass", "instances": []any{map[string]any{"address": map[string]any{"to_display": "terraform_data.a"}, "status": "pass"}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plan JSON checks (-want +got):\n%s", diff)
	}
	s.Forget(func(c checks.Config) bool { return c.Resource.Mode == addrs.Ephemeral })
	var statuses []string
	for _, r := range s.Results() {
		for _, o := range r.Objects {
			statuses = append(statuses, o.Object.String()+" "+o.Status.String())
		}
	}
	if diff := cmp.Diff([]string{"ephemeral.random_password.p unknown", "terraform_data.a pass"}, statuses); diff != "" {
		t.Errorf("after Forget (-want +got):\n%s", diff)
	}
}
