package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A moved block to a resource of another type converts the deposed
// objects of the instance as well as its current one, each with its own
// identity: the plan then destroys a deposed object as the new type's,
// and the state never holds an object of the old type under the new one.
func TestCrossTypeMoveDeposed(t *testing.T) {
	world := pluginWorld(t)
	writeFile(t, world, "f1", "legacy body")
	writeFile(t, world, "f0", "older body")
	st := strings.Replace(legacyFileState("legacy body", "f1"), `"identity": {"file_id": "f1"}
        }`, `"identity": {"file_id": "f1"}
        },
        {
          "schema_version": 0,
          "deposed": "00000001",
          "attributes": {"name": "f0", "body": "older body"},
          "sensitive_attributes": [],
          "identity_schema_version": 0,
          "identity": {"file_id": "f0"}
        }`, 1)
	if !strings.Contains(st, `"deposed"`) {
		t.Fatal("the state fixture has no deposed object")
	}
	dir := workDir(t, map[string]string{"main.tf": crossTypeMoveConfig, "terraform.tfstate": st})
	r := mustRig(t, dir, "plan", "-no-color")
	for _, want := range []string{`# test_file.new (deposed object 00000001) will be destroyed`, "Plan: 0 to add, 0 to change, 1 to destroy."} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, r.stdout)
		}
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if _, err := os.Stat(filepath.Join(world, "f0")); !os.IsNotExist(err) {
		t.Errorf("the deposed object's file is still there (%v)", err)
	}
	if got := string(stateInstance(t, dir, "test_file", "new")["identity"]); got != `{"id":"f1"}` {
		t.Errorf("identity after the move %s, want the current object's under test_file", got)
	}
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after the move:\n%s", r.stdout)
	}
}
