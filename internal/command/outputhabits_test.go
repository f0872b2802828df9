package command

import (
	"encoding/json"
	"strings"
	"testing"
)

const outputTypesConfig = `
variable "l" {
  type    = list(string)
  default = []
}
variable "o" {
  type    = object({ a = string, b = optional(number, 5) })
  default = { a = "x" }
}
output "s" { value = "text" }
output "n" { value = 1.5 }
output "b" { value = true }
output "l" { value = var.l }
output "m" { value = { x = 1 } }
output "o" { value = var.o }
output "sec" {
  value     = "hush"
  sensitive = true
}
`

// TestOutputFormatsInPipelines: what a script reads of each type of
// output value with -raw and -json, values given as TF_VAR_ variables.
func TestOutputFormatsInPipelines(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": outputTypesConfig})
	t.Setenv("TF_VAR_l", `["a", "b"]`)
	t.Setenv("TF_VAR_o", `{a = "q"}`)
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for name, want := range map[string]string{"s": "text", "n": "1.5", "b": "true", "sec": "hush"} {
		if r := rig(t, dir, "output", "-raw", name); r.code != 0 || r.stdout != want {
			t.Errorf("output -raw %s: exit %d, %q; want %q\n%s", name, r.code, r.stdout, want, r.stderr)
		}
	}
	for name, typ := range map[string]string{"l": "list of string", "m": "object", "o": "object"} {
		r := rig(t, dir, "output", "-raw", "-no-color", name)
		if want := `The -raw option only supports strings, numbers, and boolean values, but
output value "` + name + `" is ` + typ + `.`; r.code != 1 || r.stdout != "" ||
			!strings.Contains(r.stderr, "Error: Unsupported value for raw output") || !strings.Contains(r.stderr, want) ||
			!strings.Contains(r.stderr, "Use the -json option for machine-readable representations of output values") {
			t.Errorf("output -raw %s: exit %d, want 1 and %q\n%s%s", name, r.code, want, r.stdout, r.stderr)
		}
	}
	for name, want := range map[string]string{"s": `"text"`, "l": `["a","b"]`, "m": `{"x":1}`, "o": `{"a":"q","b":5}`, "sec": `"hush"`} {
		if r := rig(t, dir, "output", "-json", name); r.code != 0 || r.stdout != want+"\n" {
			t.Errorf("output -json %s: exit %d, %q; want %q\n%s", name, r.code, r.stdout, want, r.stderr)
		}
	}
	// Every output at once, as jq reads it.
	r := rig(t, dir, "output", "-json")
	var all map[string]struct {
		Sensitive bool            `json:"sensitive"`
		Type      json.RawMessage `json:"type"`
		Value     json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &all); r.code != 0 || err != nil {
		t.Fatalf("output -json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if o := all["o"]; compactJSON(o.Type) != `["object",{"a":"string","b":"number"}]` || compactJSON(o.Value) != `{"a":"q","b":5}` {
		t.Errorf("output -json: o is %s of type %s", o.Value, o.Type)
	}
	if sec := all["sec"]; !sec.Sensitive || compactJSON(sec.Value) != `"hush"` {
		t.Errorf("output -json: sec is %+v, want sensitive with its value", sec)
	}
}
