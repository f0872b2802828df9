package eval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// Conditions over sensitive values are evaluated like any others; an
// error message that is itself sensitive is not shown, in the words of
// OpenTofu and Terraform (an error for a variable's validation, a warning
// for the other conditions, which OpenTofu gives also when they hold).
func TestConditionsOverSensitiveValues(t *testing.T) {
	cfg := loadTree(t, map[string]string{"main.tf": `
variable "pw" {
  sensitive = true
  validation {
    condition     = length(var.pw) >= 12
    error_message = "Too short."
  }
  validation {
    condition     = length(var.pw) >= 12
    error_message = "${var.pw} is too short."
  }
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = var.pw == "hunter2"
      error_message = "Not ${var.pw}."
    }
    precondition {
      condition     = var.pw != "hunter2"
      error_message = "Got ${var.pw}."
    }
    precondition {
      condition     = var.pw != "hunter2"
      error_message = "Got ${nonsensitive(var.pw)}."
    }
  }
}
`})
	e, ds := New(context.Background(), Options{Config: cfg, Resources: noResources{},
		Variables: map[string]cty.Value{"pw": cty.StringVal("hunter2").Mark(lang.Sensitive)}})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	scope := e.Scope(addrs.RootModule, lang.InstanceData{})
	pw := cfg.Variables["pw"]
	r := cfg.Resources()[0]
	st := checks.NewState(cfg)
	obj := checks.NamedObject(checks.VariableKind, addrs.RootModule, "pw")
	tests := []struct {
		name   string
		rule   *config.CheckRule
		at     RuleAt
		status checks.Status
		want   []string // severity: summary: detail, in order
	}{
		{"validation fails with its message", pw.Validations[0], RuleAt{Checks: st, Object: obj, Type: checks.Validation}, checks.Fail,
			[]string{"error: Invalid value for variable: Too short."}},
		{"validation whose message is sensitive", pw.Validations[1], RuleAt{Checks: st, Object: obj, Type: checks.Validation, Index: 1}, checks.Fail,
			[]string{"error: Error message refers to sensitive values: The error expression used to explain this condition refers to sensitive values. rig will not display the resulting message.",
				"error: Invalid value for variable: The error message included a sensitive value, so it will not be displayed."}},
		// OpenTofu evaluates the message of a condition that holds too,
		// and warns that it refers to sensitive values.
		{"precondition that holds", r.Preconditions[0], RuleAt{}, checks.Pass,
			[]string{"warning: Error message refers to sensitive values: The error expression used to explain this condition refers to sensitive values, so rig will not display the resulting message."}},
		{"precondition whose message is sensitive", r.Preconditions[1], RuleAt{}, checks.Fail,
			[]string{"warning: Error message refers to sensitive values: The error expression used to explain this condition refers to sensitive values, so rig will not display the resulting message.",
				"error: Invalid value for variable: This check failed, but has an invalid error message as described in the other accompanying messages."}},
		{"nonsensitive in the message", r.Preconditions[2], RuleAt{}, checks.Fail,
			[]string{"error: Invalid value for variable: Got hunter2."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckRule(scope, tt.rule, "Invalid value for variable", "", tt.at)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), describe(got))
			}
			for i, d := range got {
				line := d.Severity.String() + ": " + d.Summary + ": " + d.Detail
				if !strings.HasPrefix(line, tt.want[i]) {
					t.Errorf("diagnostic %d:\n got %s\nwant %s…", i, line, tt.want[i])
				}
			}
		})
	}
	for _, res := range st.Results() {
		if res.Config.Kind != checks.VariableKind {
			continue
		}
		want := []string{"The error message included a sensitive value, so it will not be displayed.", "Too short."}
		if len(res.Objects) != 1 || res.Objects[0].Status != checks.Fail || !slices.Equal(res.Objects[0].Messages, want) {
			t.Errorf("variable's results %+v, want failed with %q", res.Objects, want)
		}
	}
}

func describe(ds diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Severity.String() + ": " + d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}
