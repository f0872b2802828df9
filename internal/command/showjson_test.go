package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const showConfig = `resource "terraform_data" "a" {
  input = "hello"
}
resource "terraform_data" "b" {
  count = 2
  input = terraform_data.a.id
}
output "greeting" {
  value = terraform_data.a.input
}
`

// state show -json prints OpenTofu's stream: its version message, then the
// instance alone as a JSON state; -json-into writes that into a file and
// shows the instance as usual.
func TestStateShowJSON(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": showConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	r := rig(t, dir, "state", "show", "-json", "terraform_data.b[1]")
	if r.code != 0 {
		t.Fatalf("state show -json: exit %d\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"type":"version"`) {
		t.Fatalf("state show -json: want the version message and the state:\n%s", r.stdout)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string `json:"address"`
					Index   any    `json:"index"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &st); err != nil {
		t.Fatalf("the state is not JSON: %v\n%s", err, lines[1])
	}
	if rs := st.Values.RootModule.Resources; len(rs) != 1 || rs[0].Address != "terraform_data.b[1]" {
		t.Errorf("resources %+v, want terraform_data.b[1] alone", rs)
	}
	into := filepath.Join(t.TempDir(), "show.json")
	r = rig(t, dir, "state", "show", "-no-color", "-json-into="+into, "terraform_data.a")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "# terraform_data.a:\n") {
		t.Errorf("state show -json-into: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(into); err != nil || !strings.Contains(string(b), `"address":"terraform_data.a"`) {
		t.Errorf("the -json-into file: %v\n%s", err, b)
	}

	// state list -json lists resource_address messages; -id selects by id.
	r = rig(t, dir, "state", "list", "-json")
	if r.code != 0 || strings.Count(r.stdout, `"type":"resource_address"`) != 3 {
		t.Errorf("state list -json: exit %d\n%s", r.code, r.stdout)
	}
	var id string
	sf, _ := readStateFile(t, dir)
	for _, res := range sf.Resources {
		if res.Name == "a" {
			var attrs struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(res.Instances[0].Attributes, &attrs)
			id = attrs.ID
		}
	}
	if r := rig(t, dir, "state", "list", "-id="+id); r.stdout != "terraform_data.a\n" {
		t.Errorf("state list -id=%s: %q", id, r.stdout)
	}
}

// output, show and validate write what -json prints into the file
// -json-into names, and show the human output too.
func TestJSONIntoDocuments(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": showConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	cases := []struct {
		args      []string
		human     string
		inFile    string
		jsonAlone []string
	}{
		{[]string{"output"}, `greeting = "hello"`, `"greeting": {`, []string{"output", "-json"}},
		{[]string{"output", "greeting"}, `"hello"`, `"hello"`, []string{"output", "-json", "greeting"}},
		{[]string{"show"}, `resource "terraform_data" "a" {`, `"format_version":"1.0"`, []string{"show", "-json"}},
		{[]string{"validate"}, "Success! The configuration is valid.", `"valid": true`, []string{"validate", "-json"}},
	}
	for _, tc := range cases {
		into := filepath.Join(t.TempDir(), "out.json")
		r := rig(t, dir, append(tc.args, "-no-color", "-json-into="+into)...)
		if r.code != 0 || !strings.Contains(r.stdout, tc.human) {
			t.Errorf("%v -json-into: exit %d, stdout lacks %q:\n%s%s", tc.args, r.code, tc.human, r.stdout, r.stderr)
		}
		b, err := os.ReadFile(into)
		if err != nil || !strings.Contains(string(b), tc.inFile) {
			t.Errorf("%v: the -json-into file lacks %q: %v\n%s", tc.args, tc.inFile, err, b)
		}
		if alone := rig(t, dir, tc.jsonAlone...); alone.stdout != string(b) {
			t.Errorf("%v: the -json-into file differs from what -json prints:\n%s\n%s", tc.args, b, alone.stdout)
		}
		if r := rig(t, dir, append(tc.args, "-json", "-json-into="+into)...); r.code != 1 {
			t.Errorf("%v with -json and -json-into: exit %d", tc.args, r.code)
		}
	}
}

// show selects what it shows as OpenTofu 1.12 does: -state, -plan=FILE, a
// state file given as argument, and with -json the configuration
// (-config) or one module (-module=DIR).
func TestShowTargets(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": showConfig, "mod/main.tf": `variable "x" {
  type        = list(string)
  description = "xs"
}
variable "z" {
  default    = 3
  deprecated = "no"
}
resource "terraform_data" "r" {
  count = 2
  input = var.x
}
module "c" {
  source = "./c"
  count  = 1
  v      = var.z
}
output "y" {
  value       = var.x
  description = "d"
}
`, "mod/c/main.tf": `variable "v" {}` + "\n"})
	mustRig(t, dir, "plan", "-no-color", "-out=p.plan")
	if r := rig(t, dir, "show", "-no-color", "-plan=p.plan"); r.code != 0 || !strings.Contains(r.stdout, "Plan: 3 to add") {
		t.Errorf("show -plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if r := rig(t, dir, "show", "-no-color", "-state"); r.code != 0 || !strings.Contains(r.stdout, `greeting = "hello"`) {
		t.Errorf("show -state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	pulled := mustRig(t, dir, "state", "pull")
	writeFile(t, dir, "copy.tfstate", pulled.stdout)
	if r := rig(t, dir, "show", "-no-color", "copy.tfstate"); r.code != 0 || !strings.Contains(r.stdout, `# terraform_data.b[1]:`) {
		t.Errorf("show STATEFILE: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := rig(t, dir, "show", "-json", "-config")
	var cfg struct {
		RootModule struct {
			Resources []struct {
				Address string `json:"address"`
			} `json:"resources"`
			Outputs map[string]any `json:"outputs"`
		} `json:"root_module"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &cfg); r.code != 0 || err != nil || len(cfg.RootModule.Resources) != 2 || cfg.RootModule.Outputs["greeting"] == nil {
		t.Errorf("show -json -config: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	// What OpenTofu 1.12.6 prints for the same module, byte for byte.
	r = rig(t, dir, "show", "-json", "-module=mod")
	if r.code != 0 {
		t.Errorf("show -json -module=mod: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden(t, "compat/show-module", r.stdout)
	for _, args := range [][]string{{"-config"}, {"-state", "-plan=p.plan"}, {"-state", "copy.tfstate"}} {
		if r := rig(t, dir, append([]string{"show", "-no-color"}, args...)...); r.code != 1 {
			t.Errorf("show %v: exit %d, want 1\n%s", args, r.code, r.stdout)
		}
	}
	writeFile(t, dir, "junk", "not a plan")
	if r := rig(t, dir, "show", "-no-color", "junk"); r.code != 1 || !strings.Contains(r.stderr, "Failed to read the given file as a state or plan file") {
		t.Errorf("show junk: exit %d\n%s", r.code, r.stderr)
	}
}
