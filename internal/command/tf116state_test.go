package command

import (
	"strings"
	"testing"
)

// terraform116DataState is a state Terraform 1.16 wrote for one
// terraform_data object: with the "store" attribute it records on every
// object of the type (null here) and "identity_schema_version": 0.
const terraform116DataState = `{
  "version": 4,
  "terraform_version": "1.16.0",
  "serial": 1,
  "lineage": "2c0b2f0e-6a51-4d0c-9d0e-0b5f3f1e2a11",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "terraform_data",
      "name": "a",
      "provider": "provider[\"terraform.io/builtin/terraform\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {"id": "b8cf01f0-dfac-c4d8-0d39-b5b9eca8c42b", "input": {"value": "x", "type": "string"}, "output": {"value": "x", "type": "string"}, "store": null, "triggers_replace": null},
          "sensitive_attributes": [],
          "identity_schema_version": 0
        }
      ]
    }
  ],
  "check_results": null
}
`

// rig reads a state Terraform 1.16 wrote for terraform_data everywhere it
// reads objects: show, console, and a plan that forgets the object with
// the attributes it had.
func TestTerraform116DataState(t *testing.T) {
	dir := workDir(t, map[string]string{"terraform.tfstate": terraform116DataState, "main.tf": `
resource "terraform_data" "a" {
  input = "x"
}
`})
	if r := mustRig(t, dir, "show", "-no-color"); !strings.Contains(r.stdout, `# terraform_data.a:`) || !strings.Contains(r.stdout, `output = "x"`) {
		t.Errorf("show:\n%s%s", r.stdout, r.stderr)
	}
	if r := rigInput(t, dir, "terraform_data.a.output\n", "console"); strings.TrimSpace(r.stdout) != `"x"` {
		t.Errorf("console: %q %s", r.stdout, r.stderr)
	}
	writeFile(t, dir, "main.tf", `
removed {
  from = terraform_data.a
  lifecycle {
    destroy = false
  }
}
`)
	r := mustRig(t, dir, "plan", "-no-color", "-out=forget.plan")
	if !strings.Contains(r.stdout, `id     = "b8cf01f0-dfac-c4d8-0d39-b5b9eca8c42b"`) || strings.Contains(r.stdout, "known after apply") {
		t.Errorf("plan forgetting the object:\n%s", r.stdout)
	}
	if r := mustRig(t, dir, "show", "-json", "forget.plan"); !strings.Contains(r.stdout, `"actions":["forget"]`) {
		t.Errorf("show -json of the plan:\n%s%s", r.stdout, r.stderr)
	}
}

// A store block holding a value, as Terraform 1.16 writes it, is read and
// shown; an object rig cannot decode (an attribute its schema lacks)
// fails `rig show` with the reason, as OpenTofu fails, rather than a
// state shown without it.
func TestShowUndecodableObject(t *testing.T) {
	st := strings.Replace(terraform116DataState, `"store": null`, `"store": {"input": null, "output": {"value": "kept", "type": "string"}, "sensitive": null, "sensitive_output": null, "replace": null, "version": {"value": 1, "type": "number"}}`, 1)
	dir := workDir(t, map[string]string{"terraform.tfstate": st})
	if r := rig(t, dir, "show", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, `output  = "kept"`) {
		t.Errorf("show of a kept store value: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	st = strings.Replace(terraform116DataState, `"store": null`, `"store": null, "nope": 1`, 1)
	dir = workDir(t, map[string]string{"terraform.tfstate": st})
	r := rig(t, dir, "show", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Failed to show state") || !strings.Contains(r.stderr, `unsupported attribute "nope"`) {
		t.Errorf("show: exit %d, want 1 naming the attribute\n%s%s", r.code, r.stdout, r.stderr)
	}
}
