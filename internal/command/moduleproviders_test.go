package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// gitModuleRepo commits files into a new bare git repository (gitRepo) and
// returns it as a module source, git::file://REPO?ref=main.
func gitModuleRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	return "git::file://" + filepath.ToSlash(gitRepo(t, files)) + "?ref=main"
}

// childProvidersConfig is a root module that requires no provider itself:
// a local child module and a module cloned from git during init each
// require the registry's provider, with constraints only one of the
// registry's versions (1.2.0; 1.4.0 is newer) satisfies together.
func childProvidersConfig(t *testing.T, host, remoteConstraint string) map[string]string {
	source := gitModuleRepo(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "` + host + `/rig/test", version = "` + remoteConstraint + `" }
  }
}
resource "test_thing" "remote" {
  name = "remote"
}
`})
	return map[string]string{
		"main.tf": `
module "local" {
  source = "./local"
}

module "remote" {
  source = "` + source + `"
}
`,
		"local/main.tf": `
terraform {
  required_providers {
    test = { source = "` + host + `/rig/test", version = "~> 1.0" }
  }
}
resource "test_thing" "local" {
  name = "local"
}
`,
	}
}

// TestInitInstallsChildModuleProviders: rig init installs the providers
// that only child modules require — a local one, and one cloned from git
// during the same init — selecting the newest version every module's
// constraint allows and locking it with the constraints merged, as
// OpenTofu and Terraform do; plan then runs the provider. rig providers
// shows each module's requirement. Constraints no version satisfies
// together are an error as OpenTofu reports it. With terraform on PATH,
// terraform init records the same lock file.
func TestInitInstallsChildModuleProviders(t *testing.T) {
	exe := testProviderExecutable(t)
	// Two versions for the current platform only: zipping the plugin for
	// each is most of the test's time.
	var rels []registrytest.Release
	for _, v := range []string{"1.2.0", "1.4.0"} {
		rels = append(rels, registrytest.Release{Namespace: "rig", Type: "test", Version: v, Platforms: []string{getproviders.CurrentPlatform.String()}, Executable: exe, Protocols: []string{"5.0", "6.0"}})
	}
	reg := registrytest.New(t, nil, rels...)
	trustRegistries(t, reg, "")
	source := reg.Host + "/rig/test"

	files := childProvidersConfig(t, reg.Host, "< 1.3")
	dir := workDir(t, files)
	r := mustRig(t, dir, "init", "-no-color")
	checkContains(t, "init output", r.stdout,
		"- Finding "+source+` versions matching "~> 1.0, < 1.3.0"...`,
		"- Installed "+source+" v1.2.0 (self-signed",
	)
	if lock := readLock(t, dir); lock.Version.String() != "1.2.0" || lock.Constraints != "~> 1.0, < 1.3.0" {
		t.Errorf("lock: %s %q, want 1.2.0 \"~> 1.0, < 1.3.0\"", lock.Version, lock.Constraints)
	}
	r = rig(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if r.code != 2 || !strings.Contains(r.stdout, "module.local.test_thing.local will be created") || !strings.Contains(r.stdout, "module.remote.test_thing.remote will be created") {
		t.Errorf("plan: exit %d, want 2 with both modules' resources\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mustRig(t, dir, "providers", "-no-color")
	wantTree := strings.ReplaceAll(`
Providers required by configuration:
.
├── module.local
│   └── provider[SOURCE] ~> 1.0
└── module.remote
    └── provider[SOURCE] < 1.3.0
`, "SOURCE", source)
	wantTree = strings.ReplaceAll(wantTree, "│   ", "│\u00a0\u00a0 ")
	if !strings.HasPrefix(r.stdout, wantTree) {
		t.Errorf("providers:\n%s\nwant it to begin with:\n%s", r.stdout, wantTree)
	}

	if tf, err := exec.LookPath("terraform"); err == nil {
		theirs := workDir(t, files)
		cmd := exec.Command(tf, "-chdir="+theirs, "init", "-input=false", "-no-color")
		cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform init: %v\n%s", err, out)
		}
		ours, _ := os.ReadFile(filepath.Join(dir, getproviders.LockFileName))
		their, _ := os.ReadFile(filepath.Join(theirs, getproviders.LockFileName))
		their = bytes.Replace(their, []byte(`"terraform init"`), []byte(`"rig init"`), 1)
		if !bytes.Equal(ours, their) {
			t.Errorf("lock files differ\nrig:\n%s\nterraform:\n%s", ours, their)
		}
	}

	conflict := workDir(t, childProvidersConfig(t, reg.Host, "< 1.0"))
	r = rig(t, conflict, "init", "-no-color")
	stderr := strings.Join(strings.Fields(r.stderr), " ")
	if want := "Error: Failed to resolve provider packages Could not resolve provider " + source + ": no available releases match the given constraints ~> 1.0, < 1.0.0"; r.code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("init with constraints no version satisfies: exit %d, want 1 and %q\n%s", r.code, want, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(conflict, getproviders.LockFileName)); err == nil {
		t.Error("a lock file was written")
	}
}

// TestRealProvidersOnlyInChildModules: real provider plugins that only
// child modules require (random, by required_providers in two modules with
// constraints to merge) or imply (local by a data source, time by a
// resource, tls by a provider block, two levels down) are installed from
// the local mirror, locked as Terraform locks them, and applied.
func TestRealProvidersOnlyInChildModules(t *testing.T) {
	mirror := realMirror(t, "random", "local", "time", "tls")
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = ">= 3.0"
    }
  }
}

module "child" {
  source = "./child"
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "< 4.0"
    }
  }
}

module "nested" {
  source = "../nested"
}

resource "random_id" "c" {
  byte_length = 4
}

data "local_file" "f" {
  filename = "${path.module}/main.tf"
}
`,
		"nested/main.tf": `
provider "tls" {}

resource "time_static" "t" {}
`,
	}
	dir := workDir(t, files)
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	for _, p := range []string{"local", "random", "time", "tls"} {
		if want := "provider registry.terraform.io/hashicorp/" + p + ": required by this configuration but no version is selected"; !strings.Contains(r.stderr, want) {
			t.Errorf("plan before init does not say %q:\n%s", want, r.stderr)
		}
	}
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	lock, err := os.ReadFile(filepath.Join(dir, getproviders.LockFileName))
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "lock file", string(lock),
		`provider "registry.terraform.io/hashicorp/local"`,
		`provider "registry.terraform.io/hashicorp/random"`,
		`  constraints = ">= 3.0.0, < 4.0.0"`,
		`provider "registry.terraform.io/hashicorp/time"`,
		`provider "registry.terraform.io/hashicorp/tls"`,
	)
	r = runOK(t, dir, "apply", "-auto-approve")
	if !strings.Contains(r.stdout, "Apply complete! Resources: 2 added") {
		t.Errorf("apply:\n%s", r.stdout)
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		theirs := workDir(t, files)
		cmd := exec.Command(tf, "-chdir="+theirs, "init", "-input=false", "-no-color", "-plugin-dir="+mirror)
		cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform init: %v\n%s", err, out)
		}
		their, _ := os.ReadFile(filepath.Join(theirs, getproviders.LockFileName))
		their = bytes.Replace(their, []byte(`"terraform init"`), []byte(`"rig init"`), 1)
		if !bytes.Equal(lock, their) {
			t.Errorf("lock files differ\nrig:\n%s\nterraform:\n%s", lock, their)
		}
	}
}
