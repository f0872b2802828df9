package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/lang"
)

// An invalid error message (an error evaluating it, null, not a string)
// of a precondition, postcondition or check assertion is an error even
// when the condition holds, as OpenTofu evaluates the message first. A
// variable's validation reports an error evaluating its message whatever
// the result, but judges its value only when it fails: then a message not
// known yet is an error instead of the failure, and one that cannot be
// shown is "Failed to evaluate condition error message.".
func TestInvalidErrorMessages(t *testing.T) {
	cfg := loadTree(t, map[string]string{"main.tf": `
variable "v" {
  type = string
  validation {
    condition     = var.v == "ok"
    error_message = null
  }
  validation {
    condition     = var.v == "ok"
    error_message = ["a"]
  }
  validation {
    condition     = var.v == "ok"
    error_message = tonumber("x")
  }
  validation {
    condition     = var.v == "ok"
    error_message = "  Not ok: ${var.u}.  "
  }
}
variable "u" {
  type = string
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = var.v != ""
      error_message = null
    }
    precondition {
      condition     = var.v != ""
      error_message = { a = 1 }
    }
    precondition {
      condition     = var.v == ""
      error_message = null
    }
    precondition {
      condition     = var.v != ""
      error_message = var.u
    }
    precondition {
      condition     = var.v == ""
      error_message = "  Empty, not ${var.v}.  "
    }
  }
}
`})
	scopeWith := func(v string, u cty.Value) *lang.Scope {
		e, ds := New(context.Background(), Options{Config: cfg, Resources: noResources{},
			Variables: map[string]cty.Value{"v": cty.StringVal(v), "u": u}})
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		return e.Scope(addrs.RootModule, lang.InstanceData{})
	}
	holds, fails := scopeWith("ok", cty.StringVal("u")), scopeWith("bad", cty.StringVal("u"))
	unknownU := scopeWith("bad", cty.UnknownVal(cty.String))
	vr, r := cfg.Variables["v"], cfg.Resources()[0]
	validation := func(i int) RuleAt { return RuleAt{Type: checks.Validation, Index: i} }
	const failed = "Invalid value for variable: "
	tests := []struct {
		name  string
		scope *lang.Scope
		rule  *config.CheckRule
		at    RuleAt
		want  []string // severity: summary: detail (its start), in order
	}{
		{"validation that holds, null message", holds, vr.Validations[0], validation(0), nil},
		{"validation that holds, list message", holds, vr.Validations[1], validation(1), nil},
		{"validation that holds, message in error", holds, vr.Validations[2], validation(2),
			[]string{`error: Invalid function argument: Invalid value for "v" parameter: cannot convert "x" to number`}},
		{"validation that fails, null message", fails, vr.Validations[0], validation(0),
			[]string{"error: " + failed + "Failed to evaluate condition error message."}},
		{"validation that fails, list message", fails, vr.Validations[1], validation(1),
			[]string{"error: Invalid error message: Unsuitable value for error message: string required",
				"error: " + failed + "Failed to evaluate condition error message."}},
		{"validation that fails, message in error", fails, vr.Validations[2], validation(2),
			[]string{"error: Invalid function argument: ", "error: " + failed + "Failed to evaluate condition error message."}},
		{"validation that fails, message trimmed", fails, vr.Validations[3], validation(3),
			[]string{"error: " + failed + "Not ok: u.\n"}},
		{"validation that fails, message unknown", unknownU, vr.Validations[3], validation(3),
			[]string{"error: Invalid error message: Value used in error message is not known and can not be used in error_message until after apply."}},
		{"precondition that holds, null message", holds, r.Preconditions[0], RuleAt{},
			[]string{"error: Invalid error message: Unsuitable value for error message: must not be null."}},
		{"precondition that holds, object message", holds, r.Preconditions[1], RuleAt{},
			[]string{"error: Invalid error message: Unsuitable value for error message: string required"}},
		// The condition is then in error, not failed, as in OpenTofu.
		{"precondition that fails, null message", holds, r.Preconditions[2], RuleAt{},
			[]string{"error: Invalid error message: Unsuitable value for error message: must not be null."}},
		{"precondition that holds, message unknown", unknownU, r.Preconditions[3], RuleAt{}, nil},
		{"precondition that fails, message trimmed", fails, r.Preconditions[4], RuleAt{},
			[]string{"error: " + failed + "Empty, not bad.\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			suffix := ""
			if tt.at.Type == checks.Validation || strings.Contains(tt.name, "trimmed") {
				suffix = "\n"
			}
			got := CheckRule(tt.scope, tt.rule, "Invalid value for variable", suffix, tt.at)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), describe(got))
			}
			for i, d := range got {
				line := d.Severity.String() + ": " + d.Summary + ": " + d.Detail
				if !strings.HasPrefix(line, tt.want[i]) {
					t.Errorf("diagnostic %d:\n got %q\nwant %q…", i, line, tt.want[i])
				}
			}
		})
	}

	// A check block's assertion is judged the same way; its failure is a
	// warning, an invalid message an error.
	got := CheckAssert(holds, r.Preconditions[0], RuleAt{})
	if len(got) != 1 || got[0].Severity.String() != "error" || got[0].Summary != "Invalid error message" {
		t.Errorf("assertion that holds with a null message:\n%s", describe(got))
	}
}
