package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErroredPlanSaved: a plan that stops with an error part-way is still
// saved to -out, as OpenTofu and Terraform save it: show prints what it
// had planned (the outputs whose dependencies were planned included),
// show -json marks it "errored": true, and apply refuses it with
// OpenTofu's "Cannot apply incomplete plan", leaving the state alone.
func TestErroredPlanSaved(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "n" {
  default = 3
}

resource "terraform_data" "a" {
  input = 1
}

resource "terraform_data" "b" {
  input = var.n
  lifecycle {
    precondition {
      condition     = var.n > 10
      error_message = "n is too small."
    }
  }
}

output "o" {
  value = terraform_data.a.output
}

output "p" {
  value = terraform_data.b.output
}
`})
	for _, args := range [][]string{{"plan", "-no-color", "-input=false", "-out=errored.tfplan"}, {"plan", "-json", "-input=false", "-out=errored.tfplan"}} {
		os.Remove(filepath.Join(dir, "errored.tfplan"))
		r := rig(t, dir, args...)
		if r.code != 1 {
			t.Fatalf("%v: exit %d, want 1\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "errored.tfplan")); err != nil {
			t.Fatalf("%v: no plan file saved: %v", args, err)
		}
		if strings.Contains(r.stdout, "Saved the plan to") {
			t.Errorf("%v tells how to apply the errored plan:\n%s", args, r.stdout)
		}
	}

	r := rig(t, dir, "show", "-no-color", "errored.tfplan")
	if r.code != 0 {
		t.Fatalf("show: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "erroredplan/show", r.stdout)

	r = rig(t, dir, "show", "-json", "errored.tfplan")
	if r.code != 0 {
		t.Fatalf("show -json: exit %d\n%s", r.code, r.stderr)
	}
	var doc struct {
		Errored         bool                       `json:"errored"`
		ResourceChanges []struct{ Address string } `json:"resource_changes"`
		OutputChanges   map[string]json.RawMessage `json:"output_changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, r.stdout)
	}
	if !doc.Errored || len(doc.ResourceChanges) != 1 || doc.ResourceChanges[0].Address != "terraform_data.a" || len(doc.OutputChanges) != 1 || doc.OutputChanges["o"] == nil {
		t.Errorf("show -json: errored %v, resource changes %v, output changes %v; want errored, terraform_data.a and o alone\n%s",
			doc.Errored, doc.ResourceChanges, doc.OutputChanges, r.stdout)
	}

	r = rig(t, dir, "explain", "-no-color", "terraform_data.a", "errored.tfplan")
	if r.code != 0 || r.stderr != "The plan is incomplete.\n" || !strings.Contains(r.stdout, "action: create") {
		t.Errorf("explain: exit %d, want 0 with \"The plan is incomplete.\" on stderr\n%s%s", r.code, r.stdout, r.stderr)
	}

	for _, args := range [][]string{{"apply", "-no-color", "errored.tfplan"}, {"apply", "-no-color", "-auto-approve", "errored.tfplan"}} {
		r = rig(t, dir, args...)
		if r.code != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d, want 1 and nothing on stdout\n%s", args, r.code, r.stdout)
		}
		golden(t, "erroredplan/apply", r.stderr)
		if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
			t.Errorf("%v wrote a state", args)
		}
	}
}

// TestErroredPlanOfFailedVariableValidation: a root variable's failed
// validation, which OpenTofu checks as it plans, makes an errored plan:
// "Planning failed." before the error, and saved to -out, as OpenTofu
// does; a cycle, found before anything is planned, makes none.
func TestErroredPlanOfFailedVariableValidation(t *testing.T) {
	tests := []struct {
		name      string
		main      string
		wantSaved bool
	}{
		{"variable validation", `
variable "n" {
  default = 3
  validation {
    condition     = var.n > 5
    error_message = "Too small."
  }
}

resource "terraform_data" "a" {
  input = var.n
}
`, true},
		{"cycle", `
resource "terraform_data" "a" {
  input = terraform_data.b.id
}

resource "terraform_data" "b" {
  input = terraform_data.a.id
}
`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": tt.main})
			r := rig(t, dir, "plan", "-no-color", "-input=false", "-out=errored.tfplan")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			_, err := os.Stat(filepath.Join(dir, "errored.tfplan"))
			if saved := err == nil; saved != tt.wantSaved {
				t.Errorf("plan saved %v, want %v", saved, tt.wantSaved)
			}
			if failed := strings.Contains(r.stdout, "Planning failed. rig encountered an error while generating this plan."); failed != tt.wantSaved {
				t.Errorf("\"Planning failed.\" shown %v, want %v\n%s", failed, tt.wantSaved, r.stdout)
			}
		})
	}
}
