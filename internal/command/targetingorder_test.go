package command

import (
	"strings"
	"testing"
)

// plan -target shows the targeting warning after the plan, "No changes."
// included, as OpenTofu does.
func TestTargetingWarningAfterThePlan(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\n"})
	r := rigOK(t, dir, "plan", "-no-color", "-target=terraform_data.a")
	if !before(r.stdout, "Plan: 1 to add", "Warning: Resource targeting is in effect") {
		t.Errorf("plan -target:\n%s", r.stdout)
	}
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	r = rigOK(t, dir, "plan", "-no-color", "-target=terraform_data.a")
	if !before(r.stdout, "No changes.", "Warning: Resource targeting is in effect") || !strings.HasSuffix(r.stdout, "as part of an error message.\n") {
		t.Errorf("plan -target without changes:\n%s", r.stdout)
	}
}
