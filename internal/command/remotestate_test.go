package command

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
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
	root := workDir(t, map[string]string{"a/main.tf": remoteStateA, "b/main.tf": remoteStateB})
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
	root := workDir(t, map[string]string{"a/main.tf": remoteStateA, "b/main.tf": b})
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
			dir := workDir(t, map[string]string{"main.tf": "data \"terraform_remote_state\" \"a\" {\n  " + tt.config + "\n}\n"})
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
	root := workDir(t, map[string]string{"a/main.tf": p.block() + remoteStateA, "b/main.tf": b})
	a, bdir := filepath.Join(root, "a"), filepath.Join(root, "b")
	mustRig(t, a, "init", "-no-color")
	mustRig(t, a, "apply", "-auto-approve", "-no-color")
	if got := mustRig(t, bdir, "plan", "-no-color").stdout; !strings.Contains(got, `+ x = "hello"`) {
		t.Errorf("plan does not read the pg state:\n%s", got)
	}
}

// remoteEncryptedConfig reads a state encrypted by OpenTofu (the
// fixture's, passphrase "correct-horse-battery-staple") through
// terraform_remote_state, in a module too; %s is the
// remote_state_data_sources block.
const remoteEncryptedConfig = `
terraform {
  encryption {
    # A key provider named otherwise than OpenTofu's reads its metadata
    # through the alias.
    key_provider "pbkdf2" "theirs" {
      passphrase               = "correct-horse-battery-staple"
      encrypted_metadata_alias = "key_provider.pbkdf2.passphrase"
    }
    key_provider "pbkdf2" "wrong" {
      passphrase = "not-the-passphrase-at-all"
    }
    method "aes_gcm" "theirs" {
      keys = key_provider.pbkdf2.theirs
    }
    method "aes_gcm" "wrong" {
      keys = key_provider.pbkdf2.wrong
    }
    %s
  }
}

data "terraform_remote_state" "other" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}

module "m" {
  source = "./m"
}

output "greeting" {
  value = data.terraform_remote_state.other.outputs.greeting
}

output "in_module" {
  value = module.m.greeting
}
`

// TestRemoteStateEncrypted reads a state OpenTofu encrypted with
// terraform_remote_state: with the remote_state_data_sources default
// method, with a method for one data source by name (the root's "other",
// the module's "m.other"), and not without one.
func TestRemoteStateEncrypted(t *testing.T) {
	fixture := "../../../shared/fixtures/opentofu-1.10/encryption/terraform.tfstate"
	encrypted, err := os.ReadFile(fixture)
	if os.IsNotExist(err) {
		t.Skip("OpenTofu fixtures absent: " + fixture)
	}
	if err != nil {
		t.Fatal(err)
	}
	module := `
data "terraform_remote_state" "other" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}

output "greeting" {
  value = data.terraform_remote_state.other.outputs.greeting
}
`
	tests := []struct {
		name, remote string
		wantErr      string
	}{
		{"default method", `remote_state_data_sources {
      default {
        method = method.aes_gcm.theirs
      }
    }`, ""},
		{"by name", `remote_state_data_sources {
      default {
        method = method.aes_gcm.wrong
      }
      remote_state_data_source "other" {
        method = method.aes_gcm.theirs
      }
      remote_state_data_source "m.other" {
        method = method.aes_gcm.theirs
      }
    }`, ""},
		{"wrong key", `remote_state_data_sources {
      default {
        method = method.aes_gcm.wrong
      }
    }`, "Error loading state"},
		{"none", ``, `no remote_state_data_sources target to decrypt it with`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{
				"main.tf":       fmt.Sprintf(remoteEncryptedConfig, tt.remote),
				"m/main.tf":     module,
				"other.tfstate": string(encrypted),
			})
			r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
			if tt.wantErr != "" {
				if r.code != 1 || !containsText(r.stderr, tt.wantErr) {
					t.Fatalf("exit %d, want 1 with %q:\n%s", r.code, tt.wantErr, r.stderr)
				}
				return
			}
			if r.code != 0 {
				t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, out := range []string{"greeting", "in_module"} {
				if got := mustRig(t, dir, "output", "-raw", out).stdout; got != "hello" {
					t.Errorf("output %s = %q, want the remote state's \"hello\"", out, got)
				}
			}
		})
	}
}
