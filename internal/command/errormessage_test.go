package command

import (
	"strings"
	"testing"
)

// An invalid error_message of a condition that holds stops the run, as in
// OpenTofu: a check block's assertion already at validate (the message is
// null whatever the values), a precondition at plan.
func TestInvalidErrorMessageOfAConditionThatHolds(t *testing.T) {
	const want = "Error: Invalid error message\n\n  on main.tf line %s\n"
	tests := []struct {
		name, cfg, cmd, line, detail string
	}{
		{"check assertion", `
variable "v" {
  default = "ok"
}
check "c" {
  assert {
    condition     = var.v == "ok"
    error_message = null
  }
}
`, "validate", `8, in check "c":`, "Unsuitable value for error message: must not be null."},
		{"precondition", `
variable "v" {
  default = "ok"
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = var.v == "ok"
      error_message = ["a"]
    }
  }
}
`, "plan", `9, in resource "terraform_data" "a":`, "Unsuitable value for error message: string required, but have tuple."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": tt.cfg})
			r := rig(t, dir, tt.cmd, "-no-color")
			head := strings.Replace(want, "%s", tt.line, 1)
			if r.code != 1 || !strings.Contains(r.stderr, head) || !strings.Contains(r.stderr, tt.detail) {
				t.Errorf("%s: exit %d, want 1 with\n%s…%s\ngot:\n%s%s", tt.cmd, r.code, head, tt.detail, r.stdout, r.stderr)
			}
		})
	}
}
