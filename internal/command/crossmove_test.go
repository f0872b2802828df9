package command

import (
	"strings"
	"testing"
)

// legacyFileState is a state holding a test_legacy_file object, a type
// the test provider's earlier versions had, with identity.
func legacyFileState(body, fileID string) string {
	return `{
  "version": 4,
  "terraform_version": "1.12.0",
  "serial": 1,
  "lineage": "0b7d3f36-9a7e-4d41-8d7f-3f1a2c4e5b6a",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "test_legacy_file",
      "name": "old",
      "provider": "provider[\"registry.terraform.io/rig/test\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {"name": "f1", "body": "` + body + `"},
          "sensitive_attributes": [],
          "identity_schema_version": 0,
          "identity": {"file_id": "` + fileID + `"}
        }
      ]
    }
  ],
  "check_results": null
}
`
}

const crossTypeMoveConfig = testFileProvider + `
resource "test_file" "new" {
  content = "legacy body"
}
moved {
  from = test_legacy_file.old
  to   = test_file.new
}
`

// A moved block to a resource of another type has the provider convert
// the object (MoveResourceState, with the object's identity); the state
// records the identity the provider gives under the new type, and the
// object is neither destroyed nor created.
func TestCrossTypeMove(t *testing.T) {
	world := pluginWorld(t)
	writeFile(t, world, "f1", "legacy body")
	dir := workDir(t, map[string]string{"main.tf": crossTypeMoveConfig, "terraform.tfstate": legacyFileState("legacy body", "f1")})
	r := mustRig(t, dir, "plan", "-no-color")
	checkContains(t, "plan", r.stdout, "# test_legacy_file.old has moved to test_file.new", "Plan: 0 to add, 0 to change, 0 to destroy.")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	inst := stateInstance(t, dir, "test_file", "new")
	if got := string(inst["identity"]); got != `{"id":"f1"}` {
		t.Errorf("identity after the move %s, want the provider's under test_file", got)
	}
	if got := string(inst["identity_schema_version"]); got != "1" {
		t.Errorf("identity_schema_version %s, want test_file's, 1", got)
	}
	if got := string(inst["attributes"]); !strings.Contains(got, `"id":"f1"`) || !strings.Contains(got, `"content":"legacy body"`) {
		t.Errorf("attributes after the move: %s", got)
	}
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after the move:\n%s", r.stdout)
	}
	if r := mustRig(t, dir, "state", "list"); strings.TrimSpace(r.stdout) != "test_file.new" {
		t.Errorf("state list after the move:\n%s", r.stdout)
	}
}

// The provider's refusals and an identity with unknown values stop the
// plan, and the state is left as it was.
func TestCrossTypeMoveErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, fileID, want string }{
		{"unknown identity", "unknown-identity", "f1", "Provider produced invalid identity"},
		{"identity of another object", "legacy body", "f2", "Invalid source identity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			world := pluginWorld(t)
			writeFile(t, world, "f1", tc.body)
			before := legacyFileState(tc.body, tc.fileID)
			dir := workDir(t, map[string]string{"main.tf": crossTypeMoveConfig, "terraform.tfstate": before})
			r := rig(t, dir, "apply", "-auto-approve", "-no-color")
			if r.code == 0 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "with test_file.new") {
				t.Errorf("exit %d, want %q:\n%s", r.code, tc.want, r.stderr)
			}
			if r := mustRig(t, dir, "state", "list"); strings.TrimSpace(r.stdout) != "test_legacy_file.old" {
				t.Errorf("state after a failed move:\n%s", r.stdout)
			}
		})
	}
}
