package command

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// remoteStateA is the configuration whose state the others read.
const remoteStateA = `
variable "x" {
  default = "hello"
}

output "x" {
  value = var.x
}

output "s" {
  value     = "secret"
  sensitive = true
}
`

// remoteStateB reads A's state through the local backend, with defaults.
const remoteStateB = `
data "terraform_remote_state" "a" {
  backend = "local"
  config = {
    path = "../a/terraform.tfstate"
  }
  defaults = {
    d = "dflt"
    x = "overridden"
  }
}

resource "terraform_data" "t" {
  input = data.terraform_remote_state.a.outputs.x
}

resource "terraform_data" "s" {
  input = data.terraform_remote_state.a.outputs.s
}

output "d" {
  value = data.terraform_remote_state.a.outputs.d
}
`

func TestRemoteStateLocal(t *testing.T) {
	root := workdir(t, map[string]string{"a/main.tf": remoteStateA, "b/main.tf": remoteStateB})
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	mustRig(t, a, "apply", "-auto-approve", "-no-color")

	golden(t, "remotestate/plan", mustRig(t, b, "plan", "-no-color").stdout)
	// The -json stream reports the read while planning as a "read" action.
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(mustRig(t, b, "plan", "-json").stdout), "\n") {
		var m struct {
			Type string
			Hook struct {
				Action   string
				Resource struct{ Addr string }
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if m.Hook.Resource.Addr == "data.terraform_remote_state.a" {
			types = append(types, m.Type+" "+m.Hook.Action)
		}
	}
	if want := []string{"apply_start read", "apply_complete read"}; !slices.Equal(types, want) {
		t.Errorf("-json messages of the data source = %q, want %q", types, want)
	}
	mustRig(t, b, "apply", "-auto-approve", "-no-color")
	sf, _ := readStateFile(t, b)
	inputs := map[string]string{}
	for _, r := range sf.Resources {
		if r.Type == "terraform_data" {
			var attrs struct {
				Input struct{ Value string }
			}
			if err := json.Unmarshal(r.Instances[0].Attributes, &attrs); err != nil {
				t.Fatal(err)
			}
			inputs[r.Name] = attrs.Input.Value
		}
	}
	if want := map[string]string{"t": "hello", "s": "secret"}; !maps.Equal(inputs, want) {
		t.Errorf("terraform_data inputs = %v, want %v", inputs, want)
	}
	var d struct{ Value string }
	if err := json.Unmarshal(sf.Outputs["d"], &d); err != nil || d.Value != "dflt" {
		t.Errorf("output d = %s, want the default dflt", sf.Outputs["d"])
	}
}

func TestRemoteStateWorkspace(t *testing.T) {
	b := `
data "terraform_remote_state" "a" {
  backend   = "local"
  workspace = "dev"
  config = {
    workspace_dir = "../a/terraform.tfstate.d"
  }
}

output "x" {
  value = data.terraform_remote_state.a.outputs.x
}
`
	root := workdir(t, map[string]string{"a/main.tf": remoteStateA, "b/main.tf": b})
	a, bdir := filepath.Join(root, "a"), filepath.Join(root, "b")
	mustRig(t, a, "apply", "-auto-approve", "-no-color")
	mustRig(t, a, "workspace", "new", "dev", "-no-color")
	mustRig(t, a, "apply", "-auto-approve", "-no-color", "-var", "x=from dev")
	if got := mustRig(t, bdir, "plan", "-no-color").stdout; !strings.Contains(got, `+ x = "from dev"`) {
		t.Errorf("plan does not read the dev workspace:\n%s", got)
	}
}

func TestRemoteStateErrors(t *testing.T) {
	tests := []struct {
		name   string
		config string
		want   string
	}{
		{"no state", `backend = "local"
  config = { path = "missing.tfstate" }`, "Unable to find remote state"},
		{"unknown backend", `backend = "azurerm"
  config = { bucket = "b" }`, `There is no backend type named "azurerm"`},
		{"unknown setting", `backend = "local"
  config = { bucket = "b" }`, `The local backend has no setting named "bucket".`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workdir(t, map[string]string{"main.tf": "data \"terraform_remote_state\" \"a\" {\n  " + tt.config + "\n}\n"})
			r := rig(t, dir, "plan", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, "data.terraform_remote_state.a") {
				t.Errorf("exit %d, want 1 and an error of data.terraform_remote_state.a with %q:\n%s", r.code, tt.want, r.stderr)
			}
		})
	}
}

func TestRemoteStatePG(t *testing.T) {
	p := newPGTarget(t)
	b := fmt.Sprintf(`
data "terraform_remote_state" "a" {
  backend = "pg"
  config = {
    conn_str    = %q
    schema_name = %q
  }
}

output "x" {
  value = data.terraform_remote_state.a.outputs.x
}
`, p.conn, p.schema)
	root := workdir(t, map[string]string{"a/main.tf": p.block() + remoteStateA, "b/main.tf": b})
	a, bdir := filepath.Join(root, "a"), filepath.Join(root, "b")
	mustRig(t, a, "init", "-no-color")
	mustRig(t, a, "apply", "-auto-approve", "-no-color")
	if got := mustRig(t, bdir, "plan", "-no-color").stdout; !strings.Contains(got, `+ x = "hello"`) {
		t.Errorf("plan does not read the pg state:\n%s", got)
	}
}
