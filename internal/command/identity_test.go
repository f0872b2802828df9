package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// pluginWorld sets up the plugin test provider (through dev_overrides, as
// "rig/test") and the directory its test_file objects live in, which it
// returns; the settings last for the test.
func pluginWorld(t *testing.T) string {
	t.Helper()
	exe := commandtest.TestProvider(t)
	cli := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cli), filepath.Base(cli), `
provider_installation {
  dev_overrides {
    "rig/test" = "`+filepath.Dir(exe)+`"
  }
}
`)
	t.Setenv("TF_CLI_CONFIG_FILE", cli)
	world := t.TempDir()
	t.Setenv("RIG_TESTPROVIDER_WORLD", world)
	return world
}

const testFileProvider = `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
`

// stateInstance returns the first instance object of resource TYPE.NAME
// in the local state file of dir, its values compacted.
func stateInstance(t *testing.T, dir, typ, name string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		if r.Type == typ && r.Name == name && len(r.Instances) > 0 {
			inst := r.Instances[0]
			for k, v := range inst {
				var c bytes.Buffer
				if err := json.Compact(&c, v); err == nil {
					inst[k] = c.Bytes()
				}
			}
			return inst
		}
	}
	t.Fatalf("no %s.%s in state:\n%s", typ, name, b)
	return nil
}

// Identities through the whole pipeline: apply records the identity the
// provider returns (as Terraform 1.12 records it), the JSON plan shows it
// before and after, a later refresh keeps it, and show -json reports it.
func TestIdentityRecordedAndShown(t *testing.T) {
	world := pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "a" {
  content = "one"
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	inst := stateInstance(t, dir, "test_file", "a")
	var attrs struct{ ID string }
	if err := json.Unmarshal(inst["attributes"], &attrs); err != nil || attrs.ID == "" {
		t.Fatalf("attributes %s: %v", inst["attributes"], err)
	}
	if got, want := string(inst["identity"]), `{"id":"`+attrs.ID+`"}`; got != want {
		t.Errorf("identity in state = %s, want %s", got, want)
	}
	if got := string(inst["identity_schema_version"]); got != "1" {
		t.Errorf("identity_schema_version in state = %s, want 1", got)
	}
	if _, err := os.Stat(filepath.Join(world, attrs.ID)); err != nil {
		t.Errorf("the object is not in the world: %v", err)
	}

	writeFile(t, dir, "main.tf", testFileProvider+`
resource "test_file" "a" {
  content = "two"
}
`)
	mustRig(t, dir, "plan", "-out=tfplan", "-no-color")
	js := mustRig(t, dir, "show", "-json", "tfplan").stdout
	var p struct {
		ResourceChanges []struct {
			Address string
			Change  struct {
				Actions        []string
				BeforeIdentity json.RawMessage `json:"before_identity"`
				AfterIdentity  json.RawMessage `json:"after_identity"`
			}
		} `json:"resource_changes"`
		PlannedValues struct {
			RootModule struct {
				Resources []struct {
					IdentitySchemaVersion *uint64         `json:"identity_schema_version"`
					Identity              json.RawMessage `json:"identity"`
				}
			} `json:"root_module"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	want := `{"id":"` + attrs.ID + `"}`
	if len(p.ResourceChanges) != 1 || string(p.ResourceChanges[0].Change.BeforeIdentity) != want || string(p.ResourceChanges[0].Change.AfterIdentity) != want {
		t.Errorf("resource_changes = %+v, want identities %s", p.ResourceChanges, want)
	}
	if rs := p.PlannedValues.RootModule.Resources; len(rs) != 1 || string(rs[0].Identity) != want || rs[0].IdentitySchemaVersion == nil || *rs[0].IdentitySchemaVersion != 1 {
		t.Errorf("planned_values resources = %+v", rs)
	}
	mustRig(t, dir, "apply", "-no-color", "tfplan")
	if got := string(stateInstance(t, dir, "test_file", "a")["identity"]); got != want {
		t.Errorf("identity after update = %s, want %s", got, want)
	}
	show := mustRig(t, dir, "show", "-json").stdout
	if !strings.Contains(show, `"identity_schema_version":1,"identity":`+want) {
		t.Errorf("show -json lacks the identity:\n%s", show)
	}
}

// A state written before the type had an identity (or by Terraform 1.11)
// gets it at the next refresh; one stored at an older identity schema
// version is upgraded through the provider.
func TestIdentityAddedAndUpgraded(t *testing.T) {
	world := pluginWorld(t)
	writeFile(t, world, "f1", "one")
	writeFile(t, world, "f2", "two")
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "old" {
  content = "one"
}
resource "test_file" "v0" {
  content = "two"
}
`, "terraform.tfstate": `{
  "version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "b5ad7e08-0c8f-4d0b-9c9e-4f54e4ef6d2a",
  "outputs": {},
  "resources": [
    {"mode": "managed", "type": "test_file", "name": "old", "provider": "provider[\"registry.terraform.io/rig/test\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "f1", "key": null, "content": "one"}}]},
    {"mode": "managed", "type": "test_file", "name": "v0", "provider": "provider[\"registry.terraform.io/rig/test\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "f2", "key": null, "content": "two"}, "identity_schema_version": 0, "identity": {"file_id": "f2"}}]}
  ],
  "check_results": null
}
`})
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("apply planned changes:\n%s", r.stdout)
	}
	for name, id := range map[string]string{"old": "f1", "v0": "f2"} {
		inst := stateInstance(t, dir, "test_file", name)
		if got := string(inst["identity"]); got != `{"id":"`+id+`"}` || string(inst["identity_schema_version"]) != "1" {
			t.Errorf("%s: identity %s version %s", name, got, inst["identity_schema_version"])
		}
	}
}

// import { identity = { … } } imports the object the identity names, and
// the plan says so; id and identity together are refused.
func TestImportByIdentity(t *testing.T) {
	world := pluginWorld(t)
	writeFile(t, world, "abc", "hello")
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
import {
  to       = test_file.a
  identity = { id = "abc" }
}
resource "test_file" "a" {
  content = "hello"
}
`})
	r := mustRig(t, dir, "plan", "-no-color", "-out=tfplan")
	checkContains(t, "plan", r.stdout, "test_file.a: Preparing import... [id=abc]", "# test_file.a will be imported", "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")
	js := mustRig(t, dir, "show", "-json", "tfplan").stdout
	if !strings.Contains(js, `"importing":{"identity":{"id":"abc"}}`) {
		t.Errorf("plan JSON lacks the importing identity:\n%s", js)
	}
	if r := mustRig(t, dir, "explain", "-no-color", "test_file.a"); !strings.Contains(r.stdout, `an import block imports it (identity {"id":"abc"})`) {
		t.Errorf("explain:\n%s", r.stdout)
	}
	mustRig(t, dir, "apply", "-no-color", "tfplan")
	if got := string(stateInstance(t, dir, "test_file", "a")["identity"]); got != `{"id":"abc"}` {
		t.Errorf("imported identity %s", got)
	}
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after the import:\n%s", r.stdout)
	}

	writeFile(t, dir, "main.tf", testFileProvider+`
import {
  to       = test_file.b
  id       = "abc"
  identity = { id = "abc" }
}
import {
  to       = test_file.b
  identity = { name = "abc" }
}
resource "test_file" "b" {
  content = "hello"
}
`)
	r = rig(t, dir, "validate", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "Conflicting import arguments") {
		t.Errorf("validate with id and identity: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "main.tf", testFileProvider+`
import {
  to       = test_file.b
  identity = { name = "abc" }
}
resource "test_file" "b" {
  content = "hello"
}
`)
	r = rig(t, dir, "plan", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, `The identity of test_file needs the attribute "id".`) || !strings.Contains(r.stderr, `has no attribute "name"`) {
		t.Errorf("plan with a wrong identity: exit %d\n%s", r.code, r.stderr)
	}
}

// A provider that changes an object's identity on update fails the apply,
// and the object keeps the identity it had.
func TestIdentityChangeIsAnError(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "a" {
  content = "one"
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	before := string(stateInstance(t, dir, "test_file", "a")["identity"])
	writeFile(t, dir, "main.tf", testFileProvider+`
resource "test_file" "a" {
  content = "new-identity"
}
`)
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "Unexpected Identity Change") || !strings.Contains(r.stderr, "During the apply operation") {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := string(stateInstance(t, dir, "test_file", "a")["identity"]); got != before {
		t.Errorf("identity after the failed update = %s, want %s", got, before)
	}
	r = rig(t, dir, "plan", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "During the read operation") {
		t.Errorf("refresh of the renamed object: exit %d\n%s", r.code, r.stderr)
	}
}

// rig import records the identity of what it imports.
func TestImportCommandRecordsIdentity(t *testing.T) {
	world := pluginWorld(t)
	writeFile(t, world, "xyz", "imported")
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "a" {
  content = "imported"
}
`})
	mustRig(t, dir, "import", "-no-color", "test_file.a", "xyz")
	if got := string(stateInstance(t, dir, "test_file", "a")["identity"]); got != `{"id":"xyz"}` {
		t.Errorf("identity after rig import = %s", got)
	}
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after the import:\n%s", r.stdout)
	}
}
