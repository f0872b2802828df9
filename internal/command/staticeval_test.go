package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// modulesManifest returns the working directory's modules.json.
func modulesManifest(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStaticLocalModuleSource: a module source built from a variable
// through a local value is evaluated by init (-var), recorded in the
// manifest as the evaluated path, and planned and applied from there;
// without the variable every command says why the source is unknown.
func TestStaticLocalModuleSource(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "env" {
  type = string
}
locals {
  dir = "./mod-${var.env}"
}
module "m" {
  source = local.dir
}
output "name" {
  value = module.m.name
}
`,
		"mod-a/main.tf": `
resource "terraform_data" "x" {
  input = "a"
}
output "name" {
  value = terraform_data.x.output
}
`,
		"mod-b/main.tf": `output "name" { value = "b" }`,
	})

	r := rig(t, dir, "init", "-input=false", "-no-color")
	if r.code != 1 {
		t.Fatalf("init without the variable: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "init stderr", r.stderr,
		"Error: Failed to request input from user for variable var.env\n\n  on main.tf line 2:",
		"Error: Unable to compute static value\n\n  on main.tf line 6, in locals:\n   6:   dir = \"./mod-${var.env}\"\n\nlocal.dir depends on var.env which is not available",
		"Error: Unable to compute static value\n\n  on main.tf line 9, in module \"m\":\n   9:   source = local.dir\n\nmodule.m.source depends on local.dir which is not available",
	)

	r = mustRig(t, dir, "init", "-var", "env=a", "-input=false", "-no-color")
	if !strings.Contains(r.stdout, "- m in mod-a\n") {
		t.Errorf("init output:\n%s", r.stdout)
	}
	if got, want := modulesManifest(t, dir), `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"./mod-a","Dir":"mod-a"}]}`; got != want {
		t.Errorf("modules.json:\n%s\nwant:\n%s", got, want)
	}
	mustRig(t, dir, "validate", "-var", "env=a", "-no-color")
	r = rig(t, dir, "plan", "-var", "env=a", "-input=false", "-no-color", "-detailed-exitcode")
	if r.code != 2 || !strings.Contains(r.stdout, "module.m.terraform_data.x will be created") {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A saved plan is applied with the variables it records.
	mustRig(t, dir, "plan", "-var", "env=a", "-out=a.plan", "-input=false", "-no-color")
	r = mustRig(t, dir, "show", "-json", "a.plan")
	if !strings.Contains(r.stdout, `"module_calls":{"m":{"source":"./mod-a"`) {
		t.Errorf("show -json: the configuration does not record the evaluated source:\n%s", r.stdout)
	}
	mustRig(t, dir, "apply", "-input=false", "-no-color", "a.plan")
	if got := stateAddresses(t, dir); !slices.Equal(got, []string{"module.m.terraform_data.x"}) {
		t.Errorf("state holds %v", got)
	}
	// The value may come from the environment too.
	t.Setenv("TF_VAR_env", "a")
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan after apply: exit %d, want 0 (no changes)\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Another value selects another module: its objects replace the
	// first module's.
	r = rig(t, dir, "plan", "-var", "env=b", "-input=false", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "module.m.terraform_data.x will be destroyed") {
		t.Errorf("plan with env=b: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestStaticEvaluationErrors: what a module source, a backend setting or
// an encryption setting may not refer to is reported with OpenTofu's
// diagnostics, by init and validate alike.
func TestStaticEvaluationErrors(t *testing.T) {
	cases := map[string]struct {
		files map[string]string
		want  []string
	}{
		"module source": {
			files: map[string]string{"main.tf": `
resource "terraform_data" "r" {}
variable "nc" {
  type    = string
  default = "./a"
  const   = false
}
variable "c" {
  type  = string
  const = true
}
module "m" {
  source = "./mod-${terraform_data.r.id}"
}
module "n" {
  source = var.nc
}
module "o" {
  source = module.m.name
}
`},
			want: []string{
				"Error: Failed to request input from user for variable var.c\n\n  on main.tf line 8:",
				"Error: Dynamic value in static context\n\n  on main.tf line 13, in module \"m\":\n  13:   source = \"./mod-${terraform_data.r.id}\"\n\nUnable to use terraform_data.r in static context, which is required by\nmodule.m.source",
				"Error: Unable to use variable in static context\n\n  on main.tf line 16, in module \"n\":\n  16:   source = var.nc\n\nThe variable \"nc\" cannot be used in a static context, because it is declared\nas \"const = false\".",
				"Error: Module output not supported in static context\n\n  on main.tf line 19, in module \"o\":\n  19:   source = module.m.name\n\nUnable to use module.m.name in static context, which is required by\nmodule.o.source",
			},
		},
		"backend": {
			files: map[string]string{"main.tf": `
resource "terraform_data" "r" {}
terraform {
  backend "local" {
    path = terraform_data.r.id
  }
}
`},
			want: []string{"Error: Dynamic value in static context\n\n  on main.tf line 5, in terraform:\n   5:     path = terraform_data.r.id\n\nUnable to use terraform_data.r in static context, which is required by\nbackend.local"},
		},
		"encryption": {
			files: map[string]string{"main.tf": `
resource "terraform_data" "r" {}
terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = terraform_data.r.output
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
}
`},
			want: []string{"Error: Dynamic value in static context\n\n  on main.tf line 6, in terraform:\n   6:       passphrase = terraform_data.r.output\n\nUnable to use terraform_data.r in static context, which is required by\nencryption.key_provider.pbkdf2.k"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := workDir(t, c.files)
			r := rig(t, dir, "init", "-input=false", "-no-color")
			if r.code != 1 {
				t.Fatalf("init: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			checkContains(t, "init stderr", r.stderr, c.want...)
			if strings.Count(r.stderr, "Error: ") != len(c.want) {
				t.Errorf("init reported %d errors, want %d:\n%s", strings.Count(r.stderr, "Error: "), len(c.want), r.stderr)
			}
		})
	}
}

// staticStateSettings is a terraform block whose local backend's path is
// local.path and whose state encryption's passphrase is var.pass, both
// evaluated statically.
const staticStateSettings = `terraform {
  backend "local" {
    path = local.path
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.pass
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
}`

// TestStaticBackendAndEncryption: the local backend's path comes from a
// variable through a local value and the encryption passphrase from a
// sensitive variable; init records the evaluated path (hashed as OpenTofu
// hashes it), apply writes an encrypted state there, and a changed value
// is a changed backend.
func TestStaticBackendAndEncryption(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "name" {
  type    = string
  default = "x"
}
variable "pass" {
  type      = string
  sensitive = true
}
locals {
  path = "states/${var.name}.tfstate"
}
` + staticStateSettings + `
resource "terraform_data" "r" {
  input = var.name
}
`})
	t.Setenv("TF_VAR_pass", "correct-horse-battery-staple")
	mustRig(t, dir, "init", "-input=false", "-no-color")
	rec, err := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var record struct {
		Backend struct {
			Config map[string]any `json:"config"`
			Hash   uint64         `json:"hash"`
		} `json:"backend"`
	}
	if err := json.Unmarshal(rec, &record); err != nil {
		t.Fatal(err)
	}
	// OpenTofu 1.12.6 records the same path and hash for this block.
	if record.Backend.Config["path"] != "states/x.tfstate" || record.Backend.Hash != 984181958 {
		t.Errorf("backend record:\n%s", rec)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color")
	data, err := os.ReadFile(filepath.Join(dir, "states", "x.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"encrypted_data"`) || strings.Contains(string(data), "terraform_data") {
		t.Errorf("the state is not encrypted:\n%s", data)
	}
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := rig(t, dir, "plan", "-var", "name=y", "-input=false", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, `Backend initialization required: please run "rig init"`) {
		t.Errorf("plan with another path: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "correct-horse") {
		t.Errorf("the passphrase was printed")
	}
}

// TestStaticRegistryModuleVersion: a registry module's host comes from a
// variable and its version constraint from a const variable set in a
// variable file; init installs the version the evaluated constraint
// allows and records it, and a version given as null means none.
func TestStaticRegistryModuleVersion(t *testing.T) {
	reg := newModuleRegistry(t, "1.0.0", "1.1.0", "2.0.0")
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "registry" {
  type = string
}
variable "major" {
  type  = string
  const = true
}
module "net" {
  source  = "${var.registry}/acme/net/aws"
  version = "~> ${var.major}.0"
  name    = "web"
}
output "id" {
  value = module.net.id
}
`,
		"terraform.tfvars": `registry = "` + reg.host() + `"`,
		"major.tfvars":     `major = "1"`,
	})
	r := mustRig(t, dir, "init", "-var-file=major.tfvars", "-input=false", "-no-color")
	if want := "Downloading " + reg.host() + "/acme/net/aws 1.1.0 for net..."; !strings.Contains(r.stdout, want) {
		t.Errorf("init output:\n%s\nwant it to contain %q", r.stdout, want)
	}
	if got := modulesManifest(t, dir); !strings.Contains(got, `{"Key":"net","Source":"`+reg.host()+`/acme/net/aws","Version":"1.1.0","Dir":".terraform/modules/net"}`) {
		t.Errorf("modules.json:\n%s", got)
	}
	mustRig(t, dir, "apply", "-var-file=major.tfvars", "-auto-approve", "-input=false", "-no-color")
	if got := stateAddresses(t, dir); !slices.Equal(got, []string{"module.net.terraform_data.server"}) {
		t.Errorf("state holds %v", got)
	}
	if r := rig(t, dir, "plan", "-var", "major=1", "-input=false", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Another major version is another selection: init installs it.
	r = mustRig(t, dir, "init", "-var", "major=2", "-input=false", "-no-color")
	if want := "Downloading " + reg.host() + "/acme/net/aws 2.0.0 for net..."; !strings.Contains(r.stdout, want) {
		t.Errorf("init with major=2:\n%s\nwant it to contain %q", r.stdout, want)
	}
}

// staticOuterCall calls module outer, whose const variable env is
// upper(var.env); staticOuterModule is that module: it calls module inner
// from the directory ../${lower(var.env)}, a source known only once the
// root variable is.
const (
	staticOuterCall = `module "outer" {
  source = "./outer"
  env    = upper(var.env)
}
`
	staticOuterModule = `
variable "env" {
  const = true
}
module "inner" {
  source = "../${lower(var.env)}"
}
`
)

// TestStaticNestedModuleSource: a child module's source built from its
// variable, which its caller sets from a root variable, is installed from
// the evaluated path; without the root variable the error about the
// child's source shows the child's file.
func TestStaticNestedModuleSource(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "env" {
  type = string
}
` + staticOuterCall,
		"outer/main.tf": staticOuterModule,
		"b/main.tf":     `resource "terraform_data" "x" {}`,
	})
	r := rig(t, dir, "init", "-input=false", "-no-color")
	want := "Error: Unable to compute static value\n\n  on outer/main.tf line 6, in module \"inner\":\n   6:   source = \"../${lower(var.env)}\"\n\nmodule.outer:module.inner.source depends on module.outer:var.env which is not\navailable"
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("init: exit %d\n%s\nwant it to contain:\n%s", r.code, r.stderr, want)
	}
	mustRig(t, dir, "init", "-var", "env=b", "-input=false", "-no-color")
	if got, want := modulesManifest(t, dir), `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"outer","Source":"./outer","Dir":"outer"},{"Key":"outer.inner","Source":"../b","Dir":"b"}]}`; got != want {
		t.Errorf("modules.json:\n%s\nwant:\n%s", got, want)
	}
	r = rig(t, dir, "plan", "-var", "env=b", "-input=false", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "module.outer.module.inner.terraform_data.x will be created") {
		t.Errorf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
