package command

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSavedPlan checks plan -out followed by apply PLANFILE, that show
// reads the plan file (also as JSON), and that a plan is refused once the
// state has changed since it was made.
func TestSavedPlan(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	planPath := filepath.Join(dir, "first.plan")
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-out="+planPath); r.code != 0 || !strings.Contains(r.stdout, "Saved the plan to:") {
		t.Fatalf("plan -out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r := rig(t, dir, "show", "-json", planPath)
	if r.code != 0 {
		t.Fatalf("show -json plan: %s", r.stderr)
	}
	var pj struct {
		FormatVersion   string `json:"format_version"`
		ResourceChanges []struct {
			Address      string `json:"address"`
			Mode         string `json:"mode"`
			Type         string `json:"type"`
			Name         string `json:"name"`
			ProviderName string `json:"provider_name"`
			Change       struct {
				Actions      []string       `json:"actions"`
				Before       any            `json:"before"`
				After        map[string]any `json:"after"`
				AfterUnknown map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
		PriorState    json.RawMessage `json:"prior_state"`
		Configuration json.RawMessage `json:"configuration"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &pj); err != nil {
		t.Fatalf("show -json output is not JSON: %v\n%s", err, r.stdout)
	}
	if pj.FormatVersion == "" || len(pj.ResourceChanges) != 2 {
		t.Fatalf("plan JSON: format_version %q, %d resource changes", pj.FormatVersion, len(pj.ResourceChanges))
	}
	a := pj.ResourceChanges[0]
	if a.Address != "terraform_data.a" || a.Mode != "managed" || a.Type != "terraform_data" || a.ProviderName != "terraform.io/builtin/terraform" ||
		strings.Join(a.Change.Actions, ",") != "create" || a.Change.After["input"] != "one" || a.Change.AfterUnknown["id"] != true {
		t.Fatalf("resource_changes[0] = %+v", a)
	}

	// Another plan, saved now, goes stale once the first is applied.
	stalePath := filepath.Join(dir, "stale.plan")
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-out="+stalePath); r.code != 0 {
		t.Fatalf("second plan: %s", r.stderr)
	}
	r = rig(t, dir, "apply", "-no-color", "-input=false", planPath)
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.") {
		t.Fatalf("apply plan file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, before := readStateFile(t, dir)
	if instanceCount(sf) != 2 {
		t.Fatalf("state has %d instances", instanceCount(sf))
	}
	r = rig(t, dir, "apply", "-no-color", "-input=false", stalePath)
	if r.code != 1 || !strings.Contains(r.stderr, "Saved plan is stale") {
		t.Fatalf("stale plan: exit %d\n%s", r.code, r.stderr)
	}
	// Applying the same plan twice is stale too.
	r = rig(t, dir, "apply", "-no-color", "-input=false", planPath)
	if r.code != 1 || !strings.Contains(r.stderr, "Saved plan is stale") {
		t.Fatalf("re-applied plan: exit %d\n%s", r.code, r.stderr)
	}
	if _, after := readStateFile(t, dir); string(after) != string(before) {
		t.Fatal("a refused plan changed the state")
	}

	// A plan whose configuration changed since is refused.
	changedPath := filepath.Join(dir, "changed.plan")
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-var=value=two", "-out="+changedPath); r.code != 0 {
		t.Fatalf("third plan: %s", r.stderr)
	}
	writeFile(t, dir, "main.tf", simpleConfig+"\nresource \"terraform_data\" \"added\" {}\n")
	r = rig(t, dir, "apply", "-no-color", "-input=false", changedPath)
	if r.code != 1 || !strings.Contains(r.stderr, "Saved plan does not match the configuration") {
		t.Fatalf("changed configuration: exit %d\n%s", r.code, r.stderr)
	}
}

// TestApplyConfirmation checks the interactive approval: anything but
// "yes" cancels, "yes" applies.
func TestApplyConfirmation(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	r := rigInput(t, dir, "no\n", "apply", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Apply cancelled.") || !strings.Contains(r.stdout, "Only 'yes' will be accepted to approve.") {
		t.Fatalf("answer no: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rigInput(t, dir, "yes\n", "apply", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 2 added") {
		t.Fatalf("answer yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rigInput(t, dir, "yes\n", "destroy", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "Do you really want to destroy all resources?") || !strings.Contains(r.stdout, "Destroy complete! Resources: 2 destroyed.") {
		t.Fatalf("destroy: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A plan saved with -var-file applies without it (it carries its
// variables, and the .tfvars file is not part of the configuration), and
// only a change of what the configuration says makes it stale: comments
// and blank lines do not.
func TestSavedPlanWithVarFileAndComments(t *testing.T) {
	cfg := `variable "x" {}
resource "terraform_data" "a" {
  input = var.x
}
`
	dir := workDir(t, map[string]string{"main.tf": cfg, "dev.tfvars": `x = "hello"`})
	if r := rig(t, dir, "plan", "-no-color", "-var-file=dev.tfvars", "-out=p.plan"); r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "main.tf", "# a note added after planning\n\n"+strings.Replace(cfg, "{}", "{} # required", 1))
	r := rig(t, dir, "apply", "-no-color", "p.plan")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 1 added") {
		t.Fatalf("apply of the saved plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "plan", "-no-color", "-var-file=dev.tfvars", "-out=p.plan", "-var=x=other"); r.code != 0 {
		t.Fatalf("second plan: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "main.tf", strings.Replace(cfg, "var.x", `"${var.x}!"`, 1))
	if r := rig(t, dir, "apply", "-no-color", "p.plan"); r.code != 1 || !strings.Contains(r.stderr, "Saved plan does not match the configuration") {
		t.Fatalf("apply after a real change: exit %d, want the mismatch\n%s%s", r.code, r.stdout, r.stderr)
	}
}
