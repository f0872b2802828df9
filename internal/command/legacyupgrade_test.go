package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// legacyState is a state file of format version 3, as Terraform 0.11 wrote
// it, with one object of the test provider and two root outputs.
const legacyState = `{
    "version": 3,
    "terraform_version": "0.11.14",
    "serial": 5,
    "lineage": "0c8b1e3a-6d2f-4a7b-9e51-3f4a5b6c7d8e",
    "modules": [
        {
            "path": ["root"],
            "outputs": {
                "greeting": {"sensitive": false, "type": "string", "value": "hello"},
                "names": {"sensitive": false, "type": "list", "value": ["a", "b"]}
            },
            "resources": {
                "test_thing.a": {
                    "type": "test_thing",
                    "depends_on": [],
                    "primary": {"id": "a", "attributes": {"id": "a", "name": "a"}, "meta": {}, "tainted": false},
                    "deposed": [],
                    "provider": "provider.test"
                }
            },
            "depends_on": []
        }
    ]
}
`

// TestLegacyStateUpgrade: a state file of format version 3 is read by
// upgrading it to version 4, as OpenTofu reads it. Commands that only read
// it work at once; init asks for its unqualified provider to be replaced
// ("Invalid legacy provider address"); once it is, the provider upgrades
// the object's flattened attributes and the plan updates it in place; the
// first write stores version 4 and keeps the original file as the backup.
func TestLegacyStateUpgrade(t *testing.T) {
	mirror := testProviderMirror(t)
	cli := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cli), filepath.Base(cli), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	t.Setenv("TF_CLI_CONFIG_FILE", cli)
	dir := workDir(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_thing" "a" {
  name = "a"
}
output "greeting" {
  value = "hello"
}
output "names" {
  value = ["a", "b"]
}
`,
		"terraform.tfstate": legacyState,
	})
	steps := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"state", "list", "-no-color"}, 0, "test_thing.a\n"},
		{[]string{"output", "-no-color", "names"}, 0, "tolist([\n  \"a\",\n  \"b\",\n])"},
		{[]string{"init", "-no-color"}, 1, "Error: Invalid legacy provider address"},
		{[]string{"state", "replace-provider", "-no-color", "-auto-approve", "--", "-/test", "rig/test"}, 0, "Successfully replaced provider for 1 resource"},
		{[]string{"init", "-no-color"}, 0, "has been successfully initialized"},
		// The test provider upgrades string attributes only: size, a
		// number, is set again, in place.
		{[]string{"plan", "-no-color", "-detailed-exitcode"}, 2, "Plan: 0 to add, 1 to change, 0 to destroy."},
	}
	for _, st := range steps {
		r := rig(t, dir, st.args...)
		if r.code != st.code || !strings.Contains(r.stdout+r.stderr, st.contains) {
			t.Fatalf("rig %s: exit %d, want %d and %q\n%s%s", strings.Join(st.args, " "), r.code, st.code, st.contains, r.stdout, r.stderr)
		}
	}
	var written struct {
		Version int    `json:"version"`
		Serial  int    `json:"serial"`
		Lineage string `json:"lineage"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &written); err != nil || written.Version != 4 || written.Serial != 6 || written.Lineage != "0c8b1e3a-6d2f-4a7b-9e51-3f4a5b6c7d8e" {
		t.Errorf("state after replace-provider: %+v (%v), want version 4, serial 6, the same lineage", written, err)
	}
	backups, _ := filepath.Glob(filepath.Join(dir, "terraform.tfstate.*.backup"))
	if len(backups) != 1 {
		t.Fatalf("backups of replace-provider: %v, want one", backups)
	}
	if backup, err := os.ReadFile(backups[0]); err != nil || string(backup) != legacyState {
		t.Errorf("backup of replace-provider: %v, want the original version 3 file:\n%s", err, backup)
	}

	// An apply writes version 4 and keeps the version 3 file as the
	// local backend's backup.
	const outputsOnly = `{"version": 3, "serial": 2, "lineage": "5e0c2a4b-1d3f-4e6a-8b7c-9d0e1f2a3b4c", "modules": [
  {"path": ["root"], "outputs": {"greeting": {"sensitive": false, "type": "string", "value": "hi"}}, "resources": {}}]}
`
	dir = workDir(t, map[string]string{"main.tf": "output \"greeting\" {\n  value = \"hello\"\n}\n", "terraform.tfstate": outputsOnly})
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
		if r := rig(t, dir, append(args, "-no-color")...); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}
	if backup, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate.backup")); err != nil || string(backup) != outputsOnly {
		t.Errorf("backup of apply: %v, want the original version 3 file:\n%s", err, backup)
	}
	data, err = os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &written); err != nil || written.Version != 4 || written.Serial != 3 || written.Lineage != "5e0c2a4b-1d3f-4e6a-8b7c-9d0e1f2a3b4c" {
		t.Errorf("state after apply: %+v (%v), want version 4, serial 3, the same lineage", written, err)
	}
}
