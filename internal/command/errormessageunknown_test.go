package command

import (
	"strings"
	"testing"
)

// A module variable's validation that fails with an error message not
// known yet is OpenTofu's "Invalid error message", which says that the
// values it refers to are known only after apply (text and -json); validate,
// where the message is not known either, passes, as OpenTofu's does.
func TestValidationErrorMessageNotKnownYet(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `resource "terraform_data" "r" {
  input = "x"
}

module "m" {
  source = "./m"
  v      = "a"
  w      = terraform_data.r.output
}
`,
		"m/main.tf": `variable "w" {
  type = string
}

variable "v" {
  validation {
    condition     = var.v == "b"
    error_message = "bad ${var.w}"
  }
}
`,
	})
	rigOK(t, dir, "init", "-no-color")
	if r := rig(t, dir, "validate", "-no-color"); r.code != 0 {
		t.Errorf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := rig(t, dir, "plan", "-no-color")
	want := `
Error: Invalid error message

  on m/main.tf line 8, in variable "v":
   8:     error_message = "bad ${var.w}"
    ├────────────────
    │ var.w is a string, known only after apply

Value used in error message is not known and can not be used in error_message
until after apply.
`
	if r.code != 1 || r.stderr != want {
		t.Errorf("plan: exit %d\nstderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}
	r = rig(t, dir, "plan", "-json")
	if want := `"values":[{"traversal":"var.w","statement":"is a string, known only after apply"}]`; r.code != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("plan -json: exit %d, want %s in\n%s", r.code, want, r.stdout)
	}
}
