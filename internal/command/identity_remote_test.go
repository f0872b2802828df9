package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A state whose objects have resource identities is read by
// terraform_remote_state like any other: its outputs are there, and
// nothing of the identities reaches the reading configuration (its data
// source object, outputs or plan).
func TestRemoteStateWithIdentities(t *testing.T) {
	pluginWorld(t)
	producer := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "f" {
  content = "remote"
}
output "name" {
  value = test_file.f.id
}
output "whole" {
  value = test_file.f
}
`})
	mustRig(t, producer, "apply", "-auto-approve", "-no-color")
	id := strings.Trim(string(stateInstance(t, producer, "test_file", "f")["identity"]), "{}")
	if id == "" {
		t.Fatal("the producer's state has no identity")
	}

	consumer := workDir(t, map[string]string{"main.tf": `
data "terraform_remote_state" "p" {
  backend = "local"
  config = {
    path = "` + filepath.ToSlash(filepath.Join(producer, "terraform.tfstate")) + `"
  }
}
output "name" {
  value = data.terraform_remote_state.p.outputs.name
}
output "all" {
  value = data.terraform_remote_state.p
}
`})
	mustRig(t, consumer, "apply", "-auto-approve", "-no-color")
	r := mustRig(t, consumer, "output", "-json")
	var outs map[string]struct{ Value json.RawMessage }
	if err := json.Unmarshal([]byte(r.stdout), &outs); err != nil {
		t.Fatalf("output -json: %v\n%s", err, r.stdout)
	}
	name := strings.Trim(string(outs["name"].Value), `"`)
	if name == "" || !strings.Contains(id, name) {
		t.Errorf("output name %s, want the producer's id (identity %s)", outs["name"].Value, id)
	}
	if strings.Contains(string(outs["all"].Value), "identity") {
		t.Errorf("the remote state's value shows identities: %s", outs["all"].Value)
	}
	b, err := os.ReadFile(filepath.Join(consumer, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "identity") {
		t.Errorf("the consumer's state records an identity:\n%s", b)
	}
	if r := mustRig(t, consumer, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after apply:\n%s", r.stdout)
	}
}
