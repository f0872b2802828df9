package command

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestCommandLineVariablesWithoutTypeAreStrings: a value given with -var or
// TF_VAR_ to a variable declared without a type is the string as written,
// even when it looks like a list or an object, as in OpenTofu and
// Terraform; a variable of a complex type, or of type any, takes an
// expression.
func TestCommandLineVariablesWithoutTypeAreStrings(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "untyped" {}
variable "untyped_env" {}
variable "any" {
  type = any
}
variable "list" {
  type = list(number)
}
output "untyped" { value = var.untyped }
output "untyped_env" { value = var.untyped_env }
output "any" { value = var.any }
output "list" { value = var.list }
`})
	t.Setenv("TF_VAR_untyped_env", `{a = 1}`)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-var", "untyped=[1, 2]", "-var", "any=[1, 2]", "-var", "list=[1, 2]")
	r := mustRig(t, dir, "output", "-json")
	var got map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("output -json: %v\n%s", err, r.stdout)
	}
	want := map[string]string{"untyped": `"[1, 2]"`, "untyped_env": `"{a = 1}"`, "any": `[1,2]`, "list": `[1,2]`}
	for name, w := range want {
		var compact bytes.Buffer
		if err := json.Compact(&compact, got[name].Value); err != nil || compact.String() != w {
			t.Errorf("output %s = %s, want %s", name, got[name].Value, w)
		}
	}
}
