package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// targetingConfig has a chain a ← b (b refers to a), an unrelated c, a
// counted n and a module whose input comes from a.
var targetingConfig = map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
resource "terraform_data" "c" {
  input = "c"
}
resource "terraform_data" "n" {
  count = 2
  input = count.index
}
module "m" {
  source = "./m"
  in     = terraform_data.a.output
}
output "b" {
  value = terraform_data.b.output
}
output "c" {
  value = terraform_data.c.output
}
`, "m/main.tf": `variable "in" {
  type = string
}
resource "terraform_data" "x" {
  input = var.in
}
`}

// before reports whether first occurs in s, and before second.
func before(s, first, second string) bool {
	i, j := strings.Index(s, first), strings.Index(s, second)
	return i >= 0 && j >= 0 && i < j
}

func TestTargetResource(t *testing.T) {
	dir := workDir(t, targetingConfig)
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-target=terraform_data.b")
	// As OpenTofu: both warnings after the operations, before the summary.
	if !before(r.stdout, "terraform_data.b: Creation complete", "Warning: Resource targeting is in effect") ||
		!before(r.stdout, "Applied changes may be incomplete", "Apply complete!") {
		t.Errorf("apply does not warn after its operations and before its summary:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "The -target and -exclude options are not for routine use") {
		t.Errorf("warning lacks its detail:\n%s", r.stderr)
	}
	if !before(r.stdout, "Resource targeting is in effect", "Applied changes may be incomplete") {
		t.Errorf("apply does not end with the incomplete-apply warning:\n%s", r.stderr)
	}
	if !before(r.stdout, "terraform_data.a: Creation complete", "terraform_data.b: Creating...") {
		t.Errorf("b was not created after a:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "Plan: 2 to add, 0 to change, 0 to destroy.") {
		t.Errorf("plan is not of a and b only:\n%s", r.stdout)
	}
	if got, want := stateAddresses(t, dir), []string{"terraform_data.a", "terraform_data.b"}; !slices.Equal(got, want) {
		t.Errorf("state %v, want %v", got, want)
	}
	// Output b comes from targeted resources alone; c from an untargeted one.
	sf, _ := readStateFile(t, dir)
	if _, ok := sf.Outputs["b"]; !ok {
		t.Errorf("output b not recorded: %v", sf.Outputs)
	}
	if _, ok := sf.Outputs["c"]; ok {
		t.Errorf("output c recorded by a targeted apply: %v", sf.Outputs)
	}
}

func TestTargetInstanceAndModule(t *testing.T) {
	dir := workDir(t, targetingConfig)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-target=terraform_data.n[1]")
	if got, want := stateAddresses(t, dir), []string{"terraform_data.n[1]"}; !slices.Equal(got, want) {
		t.Errorf("after -target=terraform_data.n[1]: state %v, want %v", got, want)
	}
	r := mustRig(t, dir, "plan", "-no-color", "-target=module.m")
	if !strings.Contains(r.stdout, "Plan: 2 to add, 0 to change, 0 to destroy.") || !strings.Contains(r.stdout, "module.m.terraform_data.x will be created") {
		t.Errorf("plan -target=module.m:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "Resource targeting is in effect") {
		t.Errorf("plan lacks the targeting warning:\n%s", r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-target=module.m")
	if got, want := stateAddresses(t, dir), []string{"terraform_data.a", "terraform_data.n[1]", "module.m.terraform_data.x"}; !slices.Equal(got, want) {
		t.Errorf("after -target=module.m: state %v, want %v", got, want)
	}
}

func TestTargetSavedPlan(t *testing.T) {
	dir := workDir(t, targetingConfig)
	mustRig(t, dir, "plan", "-no-color", "-target=terraform_data.c", "-out=c.plan")
	r := mustRig(t, dir, "apply", "-no-color", "c.plan")
	if got, want := stateAddresses(t, dir), []string{"terraform_data.c"}; !slices.Equal(got, want) {
		t.Errorf("state %v, want %v", got, want)
	}
	if !strings.Contains(r.stdout, "Applied changes may be incomplete") {
		t.Errorf("apply of a targeted plan lacks the warning:\n%s", r.stderr)
	}
}

func TestDestroyTarget(t *testing.T) {
	dir := workDir(t, targetingConfig)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	r := mustRig(t, dir, "destroy", "-auto-approve", "-no-color", "-target=terraform_data.a")
	// b and module.m's x depend on a: destroyed first.
	for _, dep := range []string{"terraform_data.b", "module.m.terraform_data.x"} {
		if !before(r.stdout, dep+": Destruction complete", "terraform_data.a: Destroying...") {
			t.Errorf("%s not destroyed before terraform_data.a:\n%s", dep, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "Destroy complete! Resources: 3 destroyed.") {
		t.Errorf("destroy summary:\n%s", r.stdout)
	}
	if got, want := stateAddresses(t, dir), []string{"terraform_data.c", "terraform_data.n[0]", "terraform_data.n[1]"}; !slices.Equal(got, want) {
		t.Errorf("state %v, want %v", got, want)
	}
}

func TestExclude(t *testing.T) {
	dir := workDir(t, targetingConfig)
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-exclude=terraform_data.a")
	if got, want := stateAddresses(t, dir), []string{"terraform_data.c", "terraform_data.n[0]", "terraform_data.n[1]"}; !slices.Equal(got, want) {
		t.Errorf("state %v, want %v", got, want)
	}
	if !strings.Contains(r.stdout, "Resource targeting is in effect") || !strings.Contains(r.stdout, "Applied changes may be incomplete") {
		t.Errorf("warnings:\n%s", r.stderr)
	}
}

func TestTargetAndExclude(t *testing.T) {
	dir := workDir(t, targetingConfig)
	for _, cmd := range []string{"plan", "apply", "destroy"} {
		r := rig(t, dir, cmd, "-no-color", "-auto-approve", "-target=terraform_data.a", "-exclude=terraform_data.b")
		if cmd == "plan" {
			r = rig(t, dir, cmd, "-no-color", "-target=terraform_data.a", "-exclude=terraform_data.b")
		}
		if r.code != 1 || !strings.Contains(r.stderr, "Invalid combination of arguments") {
			t.Errorf("%s: exit %d\n%s", cmd, r.code, r.stderr)
		}
	}
}

// -target-file and -exclude-file read addresses a line, skipping blank
// lines and comments, and add to -target and -exclude; a bad line is
// reported at its file and line.
func TestTargetFiles(t *testing.T) {
	files := map[string]string{
		"targets.txt":  "# made first\nterraform_data.c\n\n  module.m\n",
		"more.txt":     "terraform_data.n[1]\n",
		"excludes.txt": "terraform_data.a\n",
		"bad.txt":      "terraform_data.c\nterraform_data.\n",
	}
	for _, tc := range []struct {
		name      string
		args      []string
		wantState []string
		wantErr   []string
	}{
		{name: "targets from two files and a flag",
			args:      []string{"-target-file=targets.txt", "-target-file=more.txt", "-target=terraform_data.n[0]"},
			wantState: []string{"terraform_data.a", "terraform_data.c", "terraform_data.n[0]", "terraform_data.n[1]", "module.m.terraform_data.x"}},
		{name: "excludes", args: []string{"-exclude-file=excludes.txt"},
			wantState: []string{"terraform_data.c", "terraform_data.n[0]", "terraform_data.n[1]"}},
		{name: "bad address", args: []string{"-target-file=bad.txt"},
			wantErr: []string{"Error: Invalid target address", "on bad.txt line 2:", "2: terraform_data."}},
		{name: "missing file", args: []string{"-exclude-file=none.txt"},
			wantErr: []string{"Error: Failed to read exclude file", "none.txt"}},
		{name: "with -exclude", args: []string{"-target-file=targets.txt", "-exclude=terraform_data.b"},
			wantErr: []string{"Error: Invalid combination of arguments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := map[string]string{}
			for k, v := range targetingConfig {
				cfg[k] = v
			}
			for k, v := range files {
				cfg[k] = v
			}
			dir := workDir(t, cfg)
			r := rig(t, dir, append([]string{"apply", "-auto-approve", "-no-color"}, tc.args...)...)
			if tc.wantErr != nil {
				for _, want := range tc.wantErr {
					if r.code != 1 || !strings.Contains(r.stderr, want) {
						t.Errorf("exit %d, want 1 and %q in\n%s", r.code, want, r.stderr)
					}
				}
				if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
					t.Errorf("a state was written after an error")
				}
				return
			}
			if r.code != 0 || !strings.Contains(r.stdout, "Resource targeting is in effect") {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if got := stateAddresses(t, dir); !slices.Equal(got, tc.wantState) {
				t.Errorf("state %v, want %v", got, tc.wantState)
			}
		})
	}
}
