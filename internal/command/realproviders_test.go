package command

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders"
)

// realMirror returns the local mirror of real provider plugins that
// .ci/providers builds (RIG_TEST_PROVIDER_MIRROR, else its default place
// under the user cache directory, building it there first when
// RIG_TEST_REAL_PROVIDERS=1), or skips the test. types are the providers
// (hashicorp/TYPE) the test needs.
func realMirror(t *testing.T, types ...string) string {
	t.Helper()
	mirror := os.Getenv("RIG_TEST_PROVIDER_MIRROR")
	if mirror == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("no provider mirror: set RIG_TEST_PROVIDER_MIRROR (see .ci/providers): %v", err)
		}
		mirror = filepath.Join(cache, "rig-providers", "mirror")
		if missingTypes(mirror, types) != nil && os.Getenv("RIG_TEST_REAL_PROVIDERS") == "1" {
			cmd := exec.Command("bash", filepath.Join("..", "..", ".ci", "providers"))
			cmd.Env = append(os.Environ(), "RIG_PROVIDER_CACHE="+filepath.Dir(mirror))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Logf(".ci/providers: %v\n%s", err, out)
			}
		}
	}
	if missing := missingTypes(mirror, types); missing != nil {
		t.Skipf("real providers %v are not in the mirror %s: run .ci/providers, or set RIG_TEST_REAL_PROVIDERS=1 to build them", missing, mirror)
	}
	return mirror
}

func missingTypes(mirror string, types []string) []string {
	var missing []string
	for _, typ := range types {
		vs, err := getproviders.FilesystemMirror{Dir: mirror}.AvailableVersions(context.Background(), addrs.NewDefaultProvider(typ), getproviders.CurrentPlatform)
		if err != nil || len(vs) == 0 {
			missing = append(missing, typ)
		}
	}
	return missing
}

const realConfig = `
terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
    local = {
      source = "hashicorp/local"
    }
  }
}

variable "keeper" {
  default = "one"
}

variable "rotation_days" {
  default = 30
}

provider "random" {}

provider "random" {
  alias = "west"
}

# Replaced create-first when the keeper changes.
resource "random_pet" "server" {
  keepers = { image = var.keeper }
  lifecycle {
    create_before_destroy = true
  }
}

# Through the aliased provider configuration.
resource "random_string" "suffix" {
  provider = random.west
  length   = 8
  special  = false
}

resource "random_password" "db" {
  length = 16
}

resource "local_file" "motd" {
  filename = "${path.module}/motd.txt"
  content  = "server ${random_pet.server.id}-${random_string.suffix.result}\n"
}

data "local_file" "motd" {
  filename = local_file.motd.filename
}

# Updated in place when rotation_days changes.
resource "time_rotating" "key" {
  rotation_days = var.rotation_days
}

resource "tls_private_key" "key" {
  algorithm = "ED25519"
}

output "server" {
  value = random_pet.server.id
}

output "motd" {
  value = data.local_file.motd.content
}

output "password" {
  value     = random_password.db.result
  sensitive = true
}
`

// realState is a state file as rig writes it, with the instance fields
// OpenTofu writes.
type realState struct {
	Version   int                        `json:"version"`
	Serial    uint64                     `json:"serial"`
	Outputs   map[string]json.RawMessage `json:"outputs"`
	Resources []struct {
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Name      string `json:"name"`
		Provider  string `json:"provider"`
		Instances []map[string]json.RawMessage
	} `json:"resources"`
}

func readRealState(t *testing.T, dir string) realState {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var s realState
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("state: %v", err)
	}
	return s
}

// instance returns the only instance of the resource "MODE.TYPE.NAME"
// ("data.local_file.motd", "managed.random_pet.server") and its provider.
func (s realState) instance(t *testing.T, addr string) (map[string]json.RawMessage, string) {
	t.Helper()
	for _, r := range s.Resources {
		if r.Mode+"."+r.Type+"."+r.Name == addr {
			if len(r.Instances) != 1 {
				t.Fatalf("%s has %d instances, want 1", addr, len(r.Instances))
			}
			return r.Instances[0], r.Provider
		}
	}
	t.Fatalf("%s not in state", addr)
	return nil, ""
}

func attr(t *testing.T, inst map[string]json.RawMessage, name string) string {
	t.Helper()
	var attrs map[string]any
	if err := json.Unmarshal(inst["attributes"], &attrs); err != nil {
		t.Fatal(err)
	}
	s, _ := attrs[name].(string)
	return s
}

func runOK(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := rig(t, dir, append([]string{args[0], "-no-color"}, args[1:]...)...)
	if r.code != 0 {
		t.Fatalf("rig %s: exit %d\n%s\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// TestRealProvidersLifecycle drives real provider plugins (random, local,
// time, tls) through init, plan, apply, a no-op plan, an in-place update, a
// create-before-destroy replacement and destroy, checking the lock file,
// the state (in the shape OpenTofu writes), outputs and the file
// local_file writes.
func TestRealProvidersLifecycle(t *testing.T) {
	mirror := realMirror(t, "random", "local", "time", "tls")
	dir := workDir(t, map[string]string{"main.tf": realConfig})

	// Without init, the providers are not installed.
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stderr, "Inconsistent dependency lock file") || !strings.Contains(r.stderr, "provider registry.terraform.io/hashicorp/random: required by this configuration but no version is selected") {
		t.Fatalf("plan before init: exit %d, want the lock file error\n%s", r.code, r.stderr)
	}

	r = runOK(t, dir, "init", "-plugin-dir="+mirror)
	checkContains(t, "init output", r.stdout,
		`- Finding hashicorp/random versions matching "~> 3.0"...`,
		"- Finding latest version of hashicorp/local...",
		"- Installed hashicorp/tls v",
		"rig has created a lock file .terraform.lock.hcl",
	)
	locks, ds := getproviders.ReadLockFile(filepath.Join(dir, getproviders.LockFileName))
	if ds.HasErrors() || len(locks.Providers) != 4 {
		t.Fatalf("lock file: %v, %d providers\n", ds.Err(), len(locks.Providers))
	}
	for _, lk := range locks.Sorted() {
		pkg := getproviders.PackageDir(mirror, lk.Provider, lk.Version, getproviders.CurrentPlatform)
		h, err := getproviders.HashDir(pkg)
		if err != nil || len(lk.Hashes) != 1 || lk.Hashes[0] != h {
			t.Errorf("%s: lock hashes %v, want [%s] (the mirror package's h1, %v)", lk.Provider, lk.Hashes, h, err)
		}
		if lk.Provider.Type == "random" && lk.Constraints != "~> 3.0" {
			t.Errorf("random: constraints %q, want \"~> 3.0\"", lk.Constraints)
		}
	}

	r = rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode")
	if r.code != 2 || !strings.Contains(r.stdout, "Plan: 6 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("first plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	runOK(t, dir, "apply", "-auto-approve", "-input=false")
	s := readRealState(t, dir)
	pet, _ := s.instance(t, "managed.random_pet.server")
	server := attr(t, pet, "id")
	suffix, suffixProvider := s.instance(t, "managed.random_string.suffix")
	motd, err := os.ReadFile(filepath.Join(dir, "motd.txt"))
	if err != nil || string(motd) != "server "+server+"-"+attr(t, suffix, "result")+"\n" {
		t.Fatalf("motd.txt = %q, %v; want the pet and suffix", motd, err)
	}
	checkRealState(t, s, suffixProvider)
	var out struct {
		Value string `json:"value"`
	}
	_ = json.Unmarshal(s.Outputs["motd"], &out)
	if out.Value != string(motd) {
		t.Errorf("output motd = %q, want the file's content %q (read by the data source)", out.Value, motd)
	}
	if r := runOK(t, dir, "output", "-raw", "server"); r.stdout != server {
		t.Errorf("output server = %q, want %q", r.stdout, server)
	}

	// Nothing changed: no changes, random values stable, state untouched.
	serial := s.Serial
	r = rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode")
	if r.code != 0 || !strings.Contains(r.stdout, "No changes.") {
		t.Fatalf("plan after apply: exit %d, want 0 and \"No changes.\"\n%s%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, dir, "apply", "-auto-approve", "-input=false")
	if s2 := readRealState(t, dir); s2.Serial != serial {
		t.Errorf("a no-op apply wrote the state: serial %d after %d", s2.Serial, serial)
	}

	// In-place update.
	r = runOK(t, dir, "apply", "-auto-approve", "-input=false", "-var=rotation_days=31")
	if !strings.Contains(r.stdout, "time_rotating.key: Modifications complete") || !strings.Contains(r.stdout, "0 added, 1 changed, 0 destroyed") {
		t.Errorf("update: want time_rotating.key modified in place:\n%s", r.stdout)
	}

	// Replacement, create-first: the new pet exists before the old one is
	// destroyed; the file is replaced (delete-first) with the new name.
	r = runOK(t, dir, "apply", "-auto-approve", "-input=false", "-var=rotation_days=31", "-var=keeper=two", "-parallelism=1")
	created := strings.Index(r.stdout, "random_pet.server: Creation complete")
	deposed := strings.Index(r.stdout, "random_pet.server (deposed object")
	fileCreated := strings.Index(r.stdout, "local_file.motd: Creation complete")
	if created < 0 || deposed < 0 || created > deposed || fileCreated < 0 || fileCreated > deposed {
		t.Errorf("replace: want the new pet (at %d) and the new file (at %d) before the old pet is destroyed (at %d):\n%s", created, fileCreated, deposed, r.stdout)
	}
	if !strings.Contains(r.stdout, "2 added, 0 changed, 2 destroyed") {
		t.Errorf("replace summary:\n%s", r.stdout)
	}
	s = readRealState(t, dir)
	pet, _ = s.instance(t, "managed.random_pet.server")
	if next := attr(t, pet, "id"); next == server {
		t.Errorf("random_pet not replaced: id still %s", server)
	} else if motd, _ := os.ReadFile(filepath.Join(dir, "motd.txt")); !strings.HasPrefix(string(motd), "server "+next+"-") {
		t.Errorf("motd.txt = %q after replacement, want the new pet %s", motd, next)
	}
	checkRealState(t, s, suffixProvider)
	if r := rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode", "-var=rotation_days=31", "-var=keeper=two"); r.code != 0 {
		t.Errorf("plan after replacement: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkWithTerraform(t, dir, mirror, "-var=rotation_days=31", "-var=keeper=two")

	r = runOK(t, dir, "destroy", "-auto-approve", "-input=false", "-var=rotation_days=31", "-var=keeper=two")
	if !strings.Contains(r.stdout, "Destroy complete! Resources: 6 destroyed.") {
		t.Errorf("destroy:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "motd.txt")); !os.IsNotExist(err) {
		t.Errorf("motd.txt still exists after destroy: %v", err)
	}
	if s := readRealState(t, dir); len(s.Resources) != 0 {
		t.Errorf("state after destroy has %d resources", len(s.Resources))
	}
}

// checkRealState checks the instance fields OpenTofu writes for these
// providers: schema_version, sensitive_attributes (from the schema),
// dependencies, create_before_destroy, and the aliased provider address.
func checkRealState(t *testing.T, s realState, suffixProvider string) {
	t.Helper()
	if s.Version != 4 {
		t.Errorf("state version %d, want 4", s.Version)
	}
	for _, r := range s.Resources {
		for _, inst := range r.Instances {
			for _, k := range []string{"schema_version", "attributes", "sensitive_attributes"} {
				if _, ok := inst[k]; !ok {
					t.Errorf("%s.%s: no %s", r.Type, r.Name, k)
				}
			}
		}
	}
	file, _ := s.instance(t, "managed.local_file.motd")
	if got := compactJSON(file["dependencies"]); got != `["random_pet.server","random_string.suffix"]` {
		t.Errorf("local_file dependencies = %s", got)
	}
	if got := compactJSON(file["sensitive_attributes"]); got != `[[{"type":"get_attr","value":"sensitive_content"}]]` {
		t.Errorf("local_file sensitive_attributes = %s", got)
	}
	pw, _ := s.instance(t, "managed.random_password.db")
	if got := compactJSON(pw["sensitive_attributes"]); got != `[[{"type":"get_attr","value":"bcrypt_hash"}],[{"type":"get_attr","value":"result"}]]` {
		t.Errorf("random_password sensitive_attributes = %s", got)
	}
	if got := string(pw["schema_version"]); got != "3" {
		t.Errorf("random_password schema_version = %s, want 3", got)
	}
	data, _ := s.instance(t, "data.local_file.motd")
	if _, ok := data["dependencies"]; ok {
		t.Errorf("data.local_file.motd records dependencies; OpenTofu records none for data sources")
	}
	pet, _ := s.instance(t, "managed.random_pet.server")
	if string(pet["create_before_destroy"]) != "true" {
		t.Errorf("random_pet create_before_destroy = %s", pet["create_before_destroy"])
	}
	if suffixProvider != `provider["registry.terraform.io/hashicorp/random"].west` {
		t.Errorf("random_string provider = %s", suffixProvider)
	}
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

var tfVersion = regexp.MustCompile(`v1\.(\d+)\.`)

// checkWithTerraform plans with OpenTofu or Terraform (when one is
// installed) against the state rig wrote, with the same providers, and
// expects no changes.
func checkWithTerraform(t *testing.T, dir, mirror string, vars ...string) {
	t.Helper()
	var bin string
	for _, name := range []string{"tofu", "terraform"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Log("neither tofu nor terraform is installed: not checking the state with them")
		return
	}
	if out, err := exec.Command(bin, "version").Output(); err != nil || !tfVersion.Match(out) {
		t.Logf("%s version: %v: not checking the state with it", bin, err)
		return
	}
	other := t.TempDir()
	tfFiles, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	names := []string{"terraform.tfstate", "motd.txt"}
	for _, f := range tfFiles {
		names = append(names, filepath.Base(f))
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) && name == "motd.txt" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = other
		cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		return string(out), code
	}
	if out, code := run("init", "-input=false", "-no-color", "-plugin-dir="+mirror); code != 0 {
		t.Logf("%s init failed (exit %d), not checking the state with it:\n%s", bin, code, out)
		return
	}
	out, code := run(append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode", "-lock=false"}, vars...)...)
	if code != 0 || !strings.Contains(out, "No changes.") {
		t.Errorf("%s plan against rig's state: exit %d, want 0 and \"No changes.\"\n%s", bin, code, out)
	} else {
		t.Logf("%s plan against rig's state: no changes", bin)
	}
}

const realImportConfig = `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

resource "random_string" "token" {
  length = 12
}

resource "random_password" "db" {
  length = 12
}

resource "random_integer" "port" {
  min = 1024
  max = 65535
}

resource "random_pet" "name" {}
`

// TestRealProviderImport imports existing values into the random
// provider's resources: random_string and random_password by their value
// (with the password's sensitive attributes recorded from the schema),
// random_integer by "result,min,max"; random_pet does not support import.
// The imported objects match their configuration: the next plan only
// creates the pet.
func TestRealProviderImport(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": realImportConfig})
	runOK(t, dir, "init", "-plugin-dir="+mirror)

	r := runOK(t, dir, "import", "-input=false", "random_string.token", "abcdefghijkl")
	checkContains(t, "import output", r.stdout,
		`random_string.token: Importing from ID "abcdefghijkl"...`,
		"random_string.token: Import prepared!\n  Prepared random_string for import\n",
		"random_string.token: Refreshing state... [id=abcdefghijkl]",
		"Import successful!",
	)
	runOK(t, dir, "import", "-input=false", "random_password.db", "s3cr3t-passw")
	runOK(t, dir, "import", "-input=false", "random_integer.port", "8080,1024,65535")
	r = rig(t, dir, "import", "-input=false", "-no-color", "random_pet.name", "happy-cat")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Resource Import Not Implemented") {
		t.Errorf("import random_pet: exit %d, want the provider's refusal\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "import", "-input=false", "-no-color", "random_string.token", "other")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Resource already managed by rig") {
		t.Errorf("second import of random_string: exit %d\n%s", r.code, r.stderr)
	}

	s := readRealState(t, dir)
	if s.Serial != 3 {
		t.Errorf("serial %d after three imports, want 3", s.Serial)
	}
	for _, c := range []struct{ addr, result, schemaVersion, sensitive string }{
		{"managed.random_string.token", "abcdefghijkl", "2", "[]"},
		{"managed.random_password.db", "s3cr3t-passw", "3", `[[{"type":"get_attr","value":"bcrypt_hash"}],[{"type":"get_attr","value":"result"}]]`},
	} {
		inst, prov := s.instance(t, c.addr)
		if got := attr(t, inst, "result"); got != c.result {
			t.Errorf("%s result = %q, want %q", c.addr, got, c.result)
		}
		if got := string(inst["schema_version"]); got != c.schemaVersion {
			t.Errorf("%s schema_version = %s, want %s", c.addr, got, c.schemaVersion)
		}
		if got := compactJSON(inst["sensitive_attributes"]); got != c.sensitive {
			t.Errorf("%s sensitive_attributes = %s, want %s", c.addr, got, c.sensitive)
		}
		if prov != `provider["registry.terraform.io/hashicorp/random"]` {
			t.Errorf("%s provider = %s", c.addr, prov)
		}
	}
	port, _ := s.instance(t, "managed.random_integer.port")
	if got := compactJSON(port["attributes"]); !strings.Contains(got, `"result":8080`) {
		t.Errorf("random_integer attributes = %s, want result 8080", got)
	}

	r = rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode")
	if r.code != 2 || !strings.Contains(r.stdout, "Plan: 1 to add, 0 to change, 0 to destroy.") || !strings.Contains(r.stdout, "random_pet.name will be created") {
		t.Errorf("plan after import: exit %d, want only random_pet.name created\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Without the pet, nothing is to change, for rig and for OpenTofu or
	// Terraform reading the state rig wrote.
	writeFile(t, dir, "main.tf", strings.Replace(realImportConfig, `resource "random_pet" "name" {}`, "", 1))
	if r := rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan without the pet: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkWithTerraform(t, dir, mirror)
}

const realGenerateConfig = `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

import {
  to = random_password.db
  id = "s3cr3t-passw"
}

import {
  to = random_integer.port
  id = "8080,1024,65535"
}
`

// TestRealProviderGenerateConfig imports objects of the random provider
// with import blocks and plan -generate-config-out: the generated blocks
// are OpenTofu's (every argument the object has, a deprecated one too,
// whose warning then points at its line in the generated file), the
// apply imports them, and the state plans with no changes in rig and in
// OpenTofu or Terraform.
func TestRealProviderGenerateConfig(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": realGenerateConfig})
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	r := runOK(t, dir, "plan", "-input=false", "-generate-config-out=gen.tf")
	checkContains(t, "plan output", r.stdout,
		"Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.",
		"# (config will be generated)",
		"rig has generated configuration and written it to gen.tf.",
	)
	gen, err := os.ReadFile(filepath.Join(dir, "gen.tf"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "real-generated-config", string(gen))

	r = runOK(t, dir, "apply", "-input=false", "-auto-approve")
	if !strings.Contains(r.stdout, "Apply complete! Resources: 2 imported, 0 added, 0 changed, 0 destroyed.") {
		t.Errorf("apply output:\n%s", r.stdout)
	}
	out := normalize(r.stdout + r.stderr)
	checkContains(t, "apply output", out, "Warning: Attribute Deprecated", `on gen.tf line 21, in resource "random_password" "db":`, "number           = true")
	if strings.Contains(out, "At attribute number.") {
		t.Errorf("the deprecation warning names the attribute instead of its line:\n%s", out)
	}
	if r := rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan after the import: exit %d, want no changes\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkWithTerraform(t, dir, mirror)
}

const realFunctionsConfig = `
terraform {
  required_providers {
    time  = { source = "hashicorp/time" }
    local = { source = "hashicorp/local" }
  }
}

resource "time_static" "now" {}

output "year" {
  value = provider::time::rfc3339_parse("2024-03-01T12:34:56Z").year
}

output "minutes" {
  value = provider::time::duration_parse("1h30m").minutes
}

output "here" {
  value = provider::local::direxists(path.module)
}

# Unknown until time_static is created: unknown in the plan.
output "created_year" {
  value = provider::time::rfc3339_parse(time_static.now.rfc3339).year
}
`

// TestRealProviderFunctions calls the functions of the time and local
// providers (the providers in the mirror that have functions; random and
// tls have none): known arguments are evaluated in the plan, unknown ones
// give unknown results until apply, and a function's error about an
// argument is a diagnostic at the call.
func TestRealProviderFunctions(t *testing.T) {
	mirror := realMirror(t, "time", "local")
	dir := workDir(t, map[string]string{"main.tf": realFunctionsConfig})
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	runOK(t, dir, "validate")
	r := runOK(t, dir, "plan", "-input=false")
	checkContains(t, "plan", r.stdout, "+ year         = 2024", "+ minutes      = 90", "+ here         = true", "+ created_year = (known after apply)")
	runOK(t, dir, "apply", "-input=false", "-auto-approve")
	r = runOK(t, dir, "output", "-json")
	var outs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &outs); err != nil {
		t.Fatalf("output -json: %v\n%s", err, r.stdout)
	}
	year := float64(time.Now().UTC().Year())
	if outs["year"].Value != 2024.0 || outs["minutes"].Value != 90.0 || outs["here"].Value != true ||
		(outs["created_year"].Value != year && outs["created_year"].Value != year-1) {
		t.Errorf("outputs = %v", outs)
	}

	writeFile(t, dir, "main.tf", realFunctionsConfig+`
output "bad" {
  value = provider::time::rfc3339_parse("yesterday")
}
`)
	r = rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid function argument") || !strings.Contains(r.stderr, "on main.tf line 29") {
		t.Errorf("plan with a bad argument: exit %d, want the provider's argument error at the call\n%s", r.code, r.stderr)
	}
}

const realProviderForEachConfig = `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

variable "instances" {
  type    = list(string)
  default = ["a", "b"]
}

variable "pets" {
  type    = list(string)
  default = ["a", "b"]
}

provider "random" {
  alias    = "k"
  for_each = toset(var.instances)
}

resource "random_pet" "p" {
  for_each = toset(var.pets)
  provider = random.k[each.key]
  prefix   = each.key
}
`

// TestRealProviderForEach runs one random plugin process per provider
// instance, records each object's provider instance, deletes an object
// through its instance, and refuses to lose an instance that still has
// objects.
func TestRealProviderForEach(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": realProviderForEachConfig})
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	runOK(t, dir, "apply", "-input=false", "-auto-approve")
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"provider": "provider[\"registry.terraform.io/hashicorp/random\"].k[\"b\"]"`) {
		t.Fatalf("state does not record the provider instance of random_pet.p[\"b\"]:\n%s", raw)
	}
	runOK(t, dir, "apply", "-input=false", "-auto-approve", `-var=pets=["a"]`)
	r := rig(t, dir, "plan", "-input=false", "-no-color", `-var=pets=["a"]`, `-var=instances=["a"]`, "-detailed-exitcode")
	if r.code != 0 {
		t.Errorf("plan after deleting random_pet.p[\"b\"] and its provider instance: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "plan", "-input=false", "-no-color", `-var=instances=["b"]`, `-var=pets=["b"]`)
	if r.code != 1 || !strings.Contains(r.stderr, "Provider instance not present") {
		t.Errorf("plan dropping provider instance a: exit %d, want \"Provider instance not present\"\n%s", r.code, r.stderr)
	}
}
