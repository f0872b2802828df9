package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputLeavesStateAlone checks that each kind of bad configuration
// gets a diagnostic naming its file and line, exits 1, and does not touch
// the state already recorded.
func TestBadInputLeavesStateAlone(t *testing.T) {
	tests := []struct {
		name     string
		config   string
		summary  string
		location string
	}{
		{
			name: "cycle",
			config: `resource "terraform_data" "a" {
  input = terraform_data.b.output
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
`,
			summary:  "Error: Cycle: terraform_data.a, terraform_data.b",
			location: "on main.tf line 2",
		},
		{
			name: "self-referencing local",
			config: `locals {
  a = local.a
}

resource "terraform_data" "a" {
  input = local.a
}
`,
			summary:  "Error: Self-referencing local value",
			location: "on main.tf line 2",
		},
		{
			name: "undeclared resource",
			config: `resource "terraform_data" "a" {
  input = "x"
}

resource "terraform_data" "b" {
  input = terraform_data.nope.output
}
`,
			summary:  "Error: Reference to undeclared resource",
			location: "on main.tf line 6",
		},
		{
			name: "syntax error",
			config: `resource "terraform_data" "a" {
  input = "x"
}

resource "terraform_data" "b" {
  input = [1, 2
}
`,
			summary:  "Error: Missing item separator",
			location: "on main.tf line 7",
		},
		{
			name: "non-literal lifecycle value",
			config: `variable "cbd" {
  default = true
}

resource "terraform_data" "a" {
  lifecycle {
    create_before_destroy = var.cbd
  }
}
`,
			summary:  "Error: Variables not allowed",
			location: "on main.tf line 7",
		},
		{
			name: "unknown function",
			config: `resource "terraform_data" "a" {
  input = nosuchfunc("x")
}
`,
			summary:  "Error: Call to unknown function",
			location: "on main.tf line 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" { input = "x" }`})
			if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
				t.Fatalf("initial apply: %s", r.stderr)
			}
			_, before := readStateFile(t, dir)
			writeFile(t, dir, "main.tf", tt.config)
			for _, cmd := range [][]string{
				{"validate", "-no-color"},
				{"plan", "-input=false", "-no-color"},
				{"apply", "-auto-approve", "-input=false", "-no-color"},
				{"destroy", "-auto-approve", "-input=false", "-no-color"},
			} {
				r := rig(t, dir, cmd...)
				if r.code != 1 {
					t.Errorf("%s: exit %d, want 1\n%s", cmd[0], r.code, r.stderr)
				}
				if !strings.Contains(r.stderr, tt.summary) || !strings.Contains(r.stderr, tt.location) {
					t.Errorf("%s: diagnostic lacks %q at %q:\n%s", cmd[0], tt.summary, tt.location, r.stderr)
				}
				_, after := readStateFile(t, dir)
				if !bytes.Equal(before, after) {
					t.Fatalf("%s changed the state", cmd[0])
				}
			}
			golden(t, "badinput/"+strings.ReplaceAll(tt.name, " ", "-"), rig(t, dir, "plan", "-input=false", "-no-color").stderr)
		})
	}
}

// TestCorruptStateIsReportedAndKept checks that a state file that is not
// valid JSON stops the run with a clear message and is left as it was.
func TestCorruptStateIsReportedAndKept(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":           `resource "terraform_data" "a" { input = "x" }`,
		"terraform.tfstate": "{\n  \"version\": 4,\n  \"serial\": \n",
	})
	for _, cmd := range [][]string{{"plan", "-input=false", "-no-color"}, {"apply", "-auto-approve", "-input=false", "-no-color"}} {
		r := rig(t, dir, cmd...)
		if r.code != 1 || !strings.Contains(r.stderr, "Failed to load state") || !strings.Contains(r.stderr, "line") ||
			!strings.Contains(r.stderr, "terraform.tfstate") {
			t.Errorf("%s: exit %d\n%s", cmd[0], r.code, r.stderr)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil || string(got) != "{\n  \"version\": 4,\n  \"serial\": \n" {
		t.Fatalf("corrupt state was modified: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
		t.Error("lock left behind")
	}
}

// TestEmptyStateIsNoState checks that a state file that is empty or holds
// only white space is no state, as in OpenTofu: plan proposes to create
// everything and apply replaces the file with a real state.
func TestEmptyStateIsNoState(t *testing.T) {
	for name, content := range map[string]string{"empty": "", "white space": " \n\t\n"} {
		t.Run(name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": simpleConfig, "terraform.tfstate": content})
			r := rig(t, dir, "plan", "-input=false", "-no-color")
			if r.code != 0 || !strings.Contains(r.stdout, "Plan: 2 to add, 0 to change, 0 to destroy.") {
				t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, args := range [][]string{{"output"}, {"show", "-no-color"}} {
				if r := rig(t, dir, args...); r.code != 0 {
					t.Errorf("%s: exit %d\n%s", args, r.code, r.stderr)
				}
			}
			// The state commands need a state, as in OpenTofu.
			if r := rig(t, dir, "state", "list"); r.code != 1 || !strings.Contains(r.stderr, "No state file was found") {
				t.Errorf("state list: exit %d\n%s", r.code, r.stderr)
			}
			if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
				t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
			}
			if sf, _ := readStateFile(t, dir); instanceCount(sf) != 2 {
				t.Errorf("state after apply has %d instances, want 2", instanceCount(sf))
			}
			if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.backup")); err == nil {
				t.Error("an empty state file was backed up")
			}
		})
	}
}

// validate reports every independent problem it finds, not only the first
// kind: an undeclared reference, a cycle and an unsupported argument
// together, each once.
func TestValidateReportsEveryProblem(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = terraform_data.b.id
}
resource "terraform_data" "b" {
  input = terraform_data.a.id
}
resource "terraform_data" "c" {
  input = var.nope
  bogus = 2
}
`})
	r := rig(t, dir, "validate", "-no-color")
	if r.code != 1 {
		t.Fatalf("validate: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"Reference to undeclared input variable", "Cycle: terraform_data.a, terraform_data.b", "Unsupported argument"} {
		if n := strings.Count(r.stderr, "Error: "+want); n != 1 {
			t.Errorf("validate reports %q %d times, want once:\n%s", want, n, r.stderr)
		}
	}
}
