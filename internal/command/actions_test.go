package command

import (
	"strings"
	"testing"
)

// TestActionsReadNotRun: a configuration with action blocks and action
// triggers (Terraform 1.14) validates, plans and applies its resources,
// warning at each trigger that its actions are not run; an invalid trigger
// is an error with Terraform's words, and -invoke is refused.
func TestActionsReadNotRun(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
action "test_notify" "hello" {
  count = 2
  config {
    message = "hi"
  }
}
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events    = [before_create, after_update]
      condition = true
      actions   = [action.test_notify.hello[0], action.test_notify.hello[1]]
    }
  }
}
`})
	mustRig(t, dir, "init", "-no-color")
	r := mustRig(t, dir, "validate", "-no-color")
	want := "Warning: Actions are not run\n\n  on main.tf line 10, in resource \"terraform_data\" \"r\":\n  10:     action_trigger {\n\nrig reads and checks action blocks and action triggers (Terraform 1.14), but\ndoes not run actions yet: action.test_notify.hello will not be invoked when\nterraform_data.r is created or updated."
	if !strings.Contains(r.stderr, want) {
		t.Errorf("validate stderr:\n%s\nwant it to contain:\n%s", r.stderr, want)
	}
	r = mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if !strings.Contains(r.stdout, "1 added") || !strings.Contains(r.stderr, "Actions are not run") {
		t.Errorf("apply:\n%s%s", r.stdout, r.stderr)
	}
	r = rig(t, dir, "apply", "-invoke=action.test_notify.hello[0]", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Option -invoke is not supported") {
		t.Errorf("apply -invoke: exit %d\n%s", r.code, r.stderr)
	}

	writeFile(t, dir, "main.tf", `
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.test_notify.missing]
    }
  }
}
`)
	r = rig(t, dir, "validate", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Reference to undeclared action") {
		t.Errorf("validate of an undeclared action: exit %d\n%s", r.code, r.stderr)
	}

	// What an action block and a trigger's condition refer to is checked
	// like any other expression.
	writeFile(t, dir, "main.tf", `
action "test_notify" "hello" {
  count = var.n
  config {
    message = local.missing
  }
}
resource "terraform_data" "r" {
  lifecycle {
    action_trigger {
      events    = [after_create]
      condition = terraform_data.nope.id == ""
      actions   = [action.test_notify.hello[0]]
    }
  }
}
`)
	r = rig(t, dir, "validate", "-no-color")
	for _, want := range []string{
		"Error: Reference to undeclared input variable\n\n  on main.tf line 3, in action \"test_notify\" \"hello\":",
		"Error: Reference to undeclared local value\n\n  on main.tf line 5, in action \"test_notify\" \"hello\":",
		"Error: Reference to undeclared resource\n\n  on main.tf line 12, in resource \"terraform_data\" \"r\":",
	} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("validate: exit %d\n%s\nwant it to contain:\n%s", r.code, r.stderr, want)
		}
	}
}
