package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkResultsConfig has a checkable object of every kind: a variable
// with a validation, a counted resource with a precondition and a
// postcondition on a value known only after apply, an output with a
// precondition and a check block whose assertion fails.
const checkResultsConfig = `
variable "n" {
  type    = number
  default = 2
  validation {
    condition     = var.n > 0
    error_message = "n must be positive."
  }
}

resource "terraform_data" "a" {
  count = var.n
  input = "x${count.index}"
  lifecycle {
    precondition {
      condition     = var.n < 10
      error_message = "too many"
    }
    postcondition {
      condition     = self.output != ""
      error_message = "empty output"
    }
  }
}

resource "terraform_data" "b" {
  input = "y"
}

output "o" {
  value = terraform_data.a[0].output
  precondition {
    condition     = length(terraform_data.a) == 2
    error_message = "want two"
  }
}

check "c" {
  assert {
    condition     = terraform_data.b.output == "z"
    error_message = "b is not z"
  }
}
`

// planChecks returns the "checks" of the JSON form of saved plan file.
func planChecks(t *testing.T, dir, file string) string {
	t.Helper()
	r := mustRig(t, dir, "show", "-json", file)
	var doc struct {
		Checks json.RawMessage `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, r.stdout)
	}
	return indentJSON(t, doc.Checks)
}

// stateCheckResults returns the state file's check_results, its entries
// and their objects sorted by address (OpenTofu writes them in no
// particular order).
func stateCheckResults(t *testing.T, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		CheckResults []struct {
			ObjectKind string `json:"object_kind"`
			ConfigAddr string `json:"config_addr"`
			Status     string `json:"status"`
			Objects    []struct {
				ObjectAddr      string   `json:"object_addr"`
				Status          string   `json:"status"`
				FailureMessages []string `json:"failure_messages,omitempty"`
			} `json:"objects"`
		} `json:"check_results"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(doc.CheckResults, func(a, b struct {
		ObjectKind string `json:"object_kind"`
		ConfigAddr string `json:"config_addr"`
		Status     string `json:"status"`
		Objects    []struct {
			ObjectAddr      string   `json:"object_addr"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failure_messages,omitempty"`
		} `json:"objects"`
	}) int {
		return strings.Compare(a.ConfigAddr, b.ConfigAddr)
	})
	for _, r := range doc.CheckResults {
		slices.SortFunc(r.Objects, func(a, b struct {
			ObjectAddr      string   `json:"object_addr"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failure_messages,omitempty"`
		}) int {
			return strings.Compare(a.ObjectAddr, b.ObjectAddr)
		})
	}
	b, err := json.Marshal(doc.CheckResults)
	if err != nil {
		t.Fatal(err)
	}
	return indentJSON(t, b)
}

func indentJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestCheckResults: the JSON plan lists every checkable object with its
// status (a postcondition on a value known only after apply is unknown,
// a failing check block assertion fails with its message), and the apply
// records the final results in the state's check_results, as OpenTofu
// and Terraform do. A plan made against that state knows them all.
func TestCheckResults(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": checkResultsConfig})
	mustRig(t, dir, "plan", "-out=p.plan", "-no-color")
	golden(t, "checks_plan_fresh", planChecks(t, dir, "p.plan"))
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "p.plan")
	golden(t, "checks_state", stateCheckResults(t, dir))
	mustRig(t, dir, "plan", "-out=again.plan", "-no-color")
	golden(t, "checks_plan_known", planChecks(t, dir, "again.plan"))

	// Inside a module called with count: one object per module instance
	// (and per for_each key of the resource), with its module address.
	dir = workDir(t, checkResultsModule)
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "plan", "-out=p.plan", "-no-color")
	golden(t, "checks_module_plan", planChecks(t, dir, "p.plan"))
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "p.plan")
	golden(t, "checks_module_state", stateCheckResults(t, dir))
}

// checkResultsModule has the checkable objects inside a module called
// with count, one of them a resource with for_each.
var checkResultsModule = map[string]string{
	"main.tf": `
module "m" {
  source = "./m"
  count  = 2
  n      = count.index + 1
}

check "c" {
  assert {
    condition     = length(module.m) == 2
    error_message = "two"
  }
}
`,
	"m/main.tf": `
variable "n" {
  type = number
  validation {
    condition     = var.n > 0
    error_message = "positive"
  }
}

resource "terraform_data" "a" {
  for_each = toset(["x", "y"])
  input    = "${each.key}${var.n}"
  lifecycle {
    postcondition {
      condition     = self.output != ""
      error_message = "empty"
    }
  }
}

output "o" {
  value = terraform_data.a["x"].output
  precondition {
    condition     = var.n < 5
    error_message = "small"
  }
}
`,
}

// TestCheckResultsLikeTerraform runs the same configurations (one in the
// root module, one in a module called with count) through Terraform and
// rig, and compares the plans' checks and the states' check_results.
func TestCheckResultsLikeTerraform(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"root module":              {"main.tf": checkResultsConfig},
		"module called with count": checkResultsModule,
	} {
		t.Run(name, func(t *testing.T) {
			tfDir := workDir(t, files)
			tf := terraformIn(t, tfDir)
			tf("init", "-no-color")
			tf("plan", "-out=p.plan", "-no-color")
			show := tf("show", "-json", "p.plan")
			var doc struct {
				Checks json.RawMessage `json:"checks"`
			}
			if err := json.Unmarshal([]byte(show.stdout), &doc); err != nil {
				t.Fatal(err)
			}
			tfPlan := indentJSON(t, doc.Checks)
			tf("apply", "-auto-approve", "-no-color", "p.plan")
			tfState := stateCheckResults(t, tfDir)

			dir := workDir(t, files)
			mustRig(t, dir, "init", "-no-color")
			mustRig(t, dir, "plan", "-out=p.plan", "-no-color")
			if diff := cmp.Diff(tfPlan, planChecks(t, dir, "p.plan")); diff != "" {
				t.Errorf("plan checks differ from Terraform's (-terraform +rig):\n%s", diff)
			}
			mustRig(t, dir, "apply", "-auto-approve", "-no-color", "p.plan")
			if diff := cmp.Diff(tfState, stateCheckResults(t, dir)); diff != "" {
				t.Errorf("state check_results differ from Terraform's (-terraform +rig):\n%s", diff)
			}
		})
	}
}
