package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
)

// A failed condition whose error message holds an ephemeral value does
// not show the message, in OpenTofu's words: an error for a variable's
// validation, a warning for the other conditions.
func TestConditionsWithEphemeralMessages(t *testing.T) {
	cfg := loadTree(t, map[string]string{"main.tf": `
variable "token" {
  ephemeral = true
  validation {
    condition     = length(var.token) > 100
    error_message = "Bad ${var.token}."
  }
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = var.token == "other"
      error_message = "Got ${var.token}."
    }
  }
}
`})
	e, ds := New(context.Background(), Options{Config: cfg, Resources: noResources{},
		Variables: map[string]cty.Value{"token": marks.MarkEphemeral(cty.StringVal("tok-5d1f"))}})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	scope := e.Scope(addrs.RootModule, lang.InstanceData{})
	tests := []struct {
		name string
		got  func() string
		want []string
	}{
		{"validation", func() string {
			return describe(CheckRule(scope, cfg.Variables["token"].Validations[0], "Invalid value for variable", "", RuleAt{Type: checks.Validation}))
		}, []string{
			"error: Error message refers to ephemeral values: The error expression used to explain this condition refers to ephemeral values. rig will not display the resulting message.",
			"error: Invalid value for variable: The error message included an ephemeral value, so it will not be displayed.",
		}},
		{"precondition", func() string {
			return describe(CheckRule(scope, cfg.Resources()[0].Preconditions[0], "Resource precondition failed", "", RuleAt{Type: checks.Precondition}))
		}, []string{
			"warning: Error message refers to ephemeral values: The error expression used to explain this condition refers to ephemeral values, so rig will not display the resulting message.",
			"error: Resource precondition failed: This check failed, but has an invalid error message as described in the other accompanying messages.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.got()
			if strings.Contains(got, "tok-5d1f") {
				t.Errorf("the diagnostics show the ephemeral value:\n%s", got)
			}
			lines := strings.Split(strings.TrimSpace(got), "\n")
			var i int
			for _, l := range lines {
				if i < len(tt.want) && strings.HasPrefix(l, tt.want[i]) {
					i++
				}
			}
			if i != len(tt.want) {
				t.Errorf("diagnostics:\n%s\nwant, in order, lines starting:\n%s", got, strings.Join(tt.want, "\n"))
			}
		})
	}
}
