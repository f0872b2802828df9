package command

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// terraform_data's store with replace = true: keeping a new input
// replaces the object, and the path that forces it is the write-only
// store.input, as Terraform 1.16 names it (in the plan JSON's
// replace_paths) and rig shows it.
func TestStoreInputForcesReplacement(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `variable "v" {
  default = "a"
}

resource "terraform_data" "a" {
  store {
    input   = var.v
    replace = true
  }
}
`})
	rigOK(t, dir, "init", "-no-color")
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	r := rigOK(t, dir, "plan", "-no-color", "-var", "v=b", "-out", "p.tfplan")
	want := `
      ~ store {
          ~ input   = (write-only attribute) # forces replacement
          ~ output  = "a" -> (known after apply)
            # (1 unchanged attribute hidden)
        }
`
	if !strings.Contains(r.stdout, "# terraform_data.a must be replaced") || !strings.Contains(r.stdout, want) {
		t.Errorf("plan:\n%s\nwant the store shown as\n%s", r.stdout, want)
	}
	r = rigOK(t, dir, "show", "-json", filepath.Join(dir, "p.tfplan"))
	var doc struct {
		ResourceChanges []struct {
			Change struct {
				Actions      []string `json:"actions"`
				ReplacePaths [][]any  `json:"replace_paths"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.ResourceChanges) != 1 {
		t.Fatalf("show -json: %v\n%s", err, r.stdout)
	}
	c := doc.ResourceChanges[0].Change
	if got, _ := json.Marshal([]any{c.Actions, c.ReplacePaths}); string(got) != `[["delete","create"],[["store","input"]]]` {
		t.Errorf("actions and replace_paths: %s", got)
	}
	if r := rigOK(t, dir, "plan", "-no-color", "-detailed-exitcode"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan without a new input:\n%s", r.stdout)
	}
}
