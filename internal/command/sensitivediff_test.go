package command

import (
	"strings"
	"testing"
)

// sensitiveConditionsConfig fails a variable validation and a
// postcondition, each an equality over a sensitive value.
const sensitiveConditionsConfig = `
variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
  validation {
    condition     = var.secret != "xyz" || var.secret == "xyz"
    error_message = "Never fails."
  }
}
variable "checked" {
  type      = string
  sensitive = true
  default   = "hunter3"
  validation {
    condition     = var.checked == "xyz"
    error_message = "The checked secret is wrong."
  }
}
resource "terraform_data" "a" {
  input = var.secret
  lifecycle {
    postcondition {
      condition     = self.input == "xyz"
      error_message = "The input is wrong."
    }
  }
}
`

// TestSensitiveConditionDiff: a failed equality over a sensitive value
// hides its diff as OpenTofu 1.12.6 words it ("Diff:" then "(sensitive
// value)"), in a variable validation and in a postcondition, and the
// value is never printed, in text or JSON.
func TestSensitiveConditionDiff(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", sensitiveConditionsConfig)
	hidden := "    ├────────────────\n    │ Diff: \n    │     (sensitive value)\n\n"
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if want := "  11: variable \"checked\" {\n" + hidden + "The checked secret is wrong."; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("plan: exit %d, lacks %q:\n%s", r.code, want, r.stderr)
	}
	jsonPlan := rig(t, dir, "plan", "-json", "-input=false")
	for _, out := range []string{r.stdout + r.stderr, jsonPlan.stdout + jsonPlan.stderr} {
		if strings.Contains(out, "hunter") {
			t.Errorf("a sensitive value was printed:\n%s", out)
		}
	}

	writeFile(t, dir, "main.tf", strings.Replace(sensitiveConditionsConfig, `default   = "hunter3"`, `default   = "xyz"`, 1))
	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if want := "      condition     = self.input == \"xyz\"\n" + hidden + "The input is wrong."; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("apply: exit %d, lacks %q:\n%s", r.code, want, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "hunter") {
		t.Errorf("a sensitive value was printed:\n%s%s", r.stdout, r.stderr)
	}
}
