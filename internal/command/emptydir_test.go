package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyDirectory runs the commands in a directory without any
// configuration file, as OpenTofu runs them: init and validate succeed
// (init writes nothing), a destroy has nothing to do, and plan, apply,
// import and providers fail with OpenTofu's reasons.
func TestEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args   []string
		code   int
		stdout string // a part of stdout
		stderr string // a part of stderr
	}{
		{[]string{"init", "-no-color"}, 0, "rig initialized in an empty directory!\n\nThe directory has no rig configuration files.", ""},
		{[]string{"validate", "-no-color"}, 0, "Success! The configuration is valid.", ""},
		// The document indented as OpenTofu and Terraform print it.
		{[]string{"validate", "-json"}, 0, "{\n  \"format_version\": \"1.0\",\n  \"valid\": true,\n  \"error_count\": 0,\n  \"warning_count\": 0,\n  \"diagnostics\": []\n}\n", ""},
		{[]string{"plan", "-no-color", "-input=false"}, 1, "", "Error: No configuration files\n\nPlan requires configuration to be present."},
		{[]string{"apply", "-no-color", "-input=false", "-auto-approve"}, 1, "", "Error: No configuration files\n\nApply requires configuration to be present."},
		{[]string{"providers", "-no-color"}, 1, "", "Error: No configuration files"},
		{[]string{"import", "-no-color", "-input=false", "terraform_data.a", "x"}, 1, "", "Error: No configuration files"},
		{[]string{"plan", "-destroy", "-no-color", "-input=false"}, 0, "No changes. No objects need to be destroyed.", ""},
		{[]string{"destroy", "-no-color", "-input=false", "-auto-approve"}, 0, "Destroy complete! Resources: 0 destroyed.", ""},
	}
	for i, tt := range tests {
		r := rig(t, dir, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stdout, tt.stdout) || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), r.code, tt.code, r.stdout, r.stderr)
		}
		if i == 0 {
			if _, err := os.Stat(filepath.Join(dir, ".terraform")); err == nil {
				t.Error("init in an empty directory wrote .terraform")
			}
		}
	}
}

// emptiedDirectory returns a directory whose state records
// terraform_data.a and the output o, and whose configuration is gone.
func emptiedDirectory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", `
resource "terraform_data" "a" { input = "x" }
output "o" { value = terraform_data.a.output }
`)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if err := os.Remove(filepath.Join(dir, "main.tf")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRefreshEmptyDirectory runs refresh without configuration, as
// OpenTofu runs it: it refreshes what the state holds, keeps the outputs
// and shows them, and warns when the state holds nothing to refresh.
func TestRefreshEmptyDirectory(t *testing.T) {
	dir := emptiedDirectory(t)
	r := rig(t, dir, "refresh", "-no-color", "-input=false")
	if r.code != 0 {
		t.Fatalf("refresh: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "terraform_data.a: Refreshing state... [id="
	if !strings.Contains(r.stdout, want) || !strings.HasSuffix(r.stdout, "\nOutputs:\n\no = \"x\"\n") {
		t.Errorf("refresh shows:\n%s\nwant the refresh of terraform_data.a, then the outputs only", r.stdout)
	}
	if strings.Contains(r.stdout, "Apply complete") || strings.Contains(r.stdout, "Changes to Outputs") {
		t.Errorf("refresh shows a plan or a summary:\n%s", r.stdout)
	}
	if got := mustRig(t, dir, "state", "list").stdout; got != "terraform_data.a\n" {
		t.Errorf("state list after refresh = %q", got)
	}
	if got := readOutput(t, dir, "o"); got != `"x"` {
		t.Errorf("output o after refresh = %s, want \"x\"", got)
	}

	empty := t.TempDir()
	for _, args := range [][]string{{"refresh", "-no-color"}, {"refresh", "-json"}} {
		r = rig(t, empty, args...)
		if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "Empty or non-existent state") {
			t.Errorf("%v with no state: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestApplySavedDestroyPlanEmptyDirectory applies a destroy plan saved in
// a directory without configuration, as OpenTofu applies it: the objects
// are destroyed and the apply ends as an apply.
func TestApplySavedDestroyPlanEmptyDirectory(t *testing.T) {
	dir := emptiedDirectory(t)
	mustRig(t, dir, "plan", "-destroy", "-out=destroy.tfplan", "-no-color", "-input=false")
	r := rig(t, dir, "apply", "-no-color", "-input=false", "destroy.tfplan")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 0 added, 0 changed, 1 destroyed.") {
		t.Fatalf("apply destroy.tfplan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := mustRig(t, dir, "state", "list").stdout; got != "" {
		t.Errorf("state list after the destroy = %q, want nothing", got)
	}
	// A plan that is not a destroy cannot be made here, nor one made
	// elsewhere applied.
	if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, "No configuration files") {
		t.Errorf("plan: exit %d\n%s", r.code, r.stderr)
	}
}
