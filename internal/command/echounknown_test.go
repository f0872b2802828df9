package command

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A terraform_data whose input is sensitive: rig keeps its output
// sensitive, but while output is unknown the plan shows it "(known after
// apply)" and leaves it out of the plan JSON's sensitive values, as
// OpenTofu does; once known it is hidden.
func TestUnknownOutputOfSensitiveInputIsNotHidden(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "pw" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  input = var.pw
}
`})
	r := runOK(t, dir, "plan", "-no-color", "-out=p.bin")
	if !strings.Contains(r.stdout, "+ input  = (sensitive value)\n      + output = (known after apply)") {
		t.Errorf("plan:\n%s", r.stdout)
	}
	r = runOK(t, dir, "show", "-json", filepath.Join(dir, "p.bin"))
	var doc struct {
		PlannedValues struct {
			RootModule struct {
				Resources []struct {
					SensitiveValues map[string]any `json:"sensitive_values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"planned_values"`
		ResourceChanges []struct {
			Change struct {
				AfterSensitive map[string]any `json:"after_sensitive"`
				AfterUnknown   map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if rs := doc.PlannedValues.RootModule.Resources; len(rs) != 1 || rs[0].SensitiveValues["input"] != true || rs[0].SensitiveValues["output"] != nil {
		t.Errorf("planned values' sensitive values: %+v, want input alone", rs)
	}
	if rc := doc.ResourceChanges; len(rc) != 1 || rc[0].Change.AfterSensitive["output"] != nil || rc[0].Change.AfterUnknown["output"] != true {
		t.Errorf("change: %+v, want output unknown and not among the sensitive values", rc)
	}
	runOK(t, dir, "apply", "-auto-approve", "p.bin")
	if r := runOK(t, dir, "show", "-no-color"); strings.Contains(r.stdout, "hunter2") || !strings.Contains(r.stdout, "output = (sensitive value)") {
		t.Errorf("show after apply:\n%s", r.stdout)
	}
}
