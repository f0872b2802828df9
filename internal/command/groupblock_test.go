package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A group block (a nested block that always exists) left out of the
// configuration plans and records as its empty value, shown as
// "+ group {}" as OpenTofu and Terraform show it; and an object whose
// recorded group block is null (as a provider on an older SDK reads it
// back) plans no change once refreshed, while -refresh=false plans the
// update that fills it in — both as OpenTofu 1.12 plans them.
func TestAbsentGroupBlock(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_thing" "a" {
  name = "a"
}
`})
	plan := mustRig(t, dir, "plan", "-no-color").stdout
	if !strings.Contains(plan, "      + group {}\n") {
		t.Errorf("the plan does not show the empty group block:\n%s", plan)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(stateInstance(t, dir, "test_thing", "a")["attributes"], &attrs); err != nil {
		t.Fatal(err)
	}
	if got := string(attrs["group"]); got != `{"x":null}` {
		t.Errorf("group in state = %s, want {\"x\":null}", got)
	}

	// Record the group block as null.
	path := filepath.Join(dir, "terraform.tfstate")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	inst := st["resources"].([]any)[0].(map[string]any)["instances"].([]any)[0].(map[string]any)
	inst["attributes"].(map[string]any)["group"] = nil
	if b, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if out := mustRig(t, dir, "plan", "-no-color").stdout; !strings.Contains(out, "No changes.") {
		t.Errorf("a refreshed plan over a null group block plans changes:\n%s", out)
	}
	out := mustRig(t, dir, "plan", "-refresh=false", "-no-color").stdout
	if !strings.Contains(out, "# test_thing.a will be updated in-place") || !strings.Contains(out, "      + group {}\n") {
		t.Errorf("a plan without refresh over a null group block does not fill it in:\n%s", out)
	}
}
