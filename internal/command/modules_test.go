package command

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// copyTree copies the directory src into a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == ".terraform" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !strings.HasSuffix(path, ".tf") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// stateAddresses lists every instance in dir's state file, as
// "MODULE.TYPE.NAME[KEY]" in the file's order.
func stateAddresses(t *testing.T, dir string) []string {
	t.Helper()
	sf, _ := readStateFile(t, dir)
	var out []string
	for _, r := range sf.Resources {
		for _, inst := range r.Instances {
			addr := r.Type + "." + r.Name
			if r.Module != "" {
				addr = r.Module + "." + addr
			}
			switch k := inst.IndexKey.(type) {
			case float64:
				addr += "[" + strconv.FormatFloat(k, 'f', -1, 64) + "]"
			case string:
				addr += `["` + k + `"]`
			}
			out = append(out, addr)
		}
	}
	return out
}

// TestModulesExampleLifecycle runs examples/modules as a user would: init
// records the local modules in modules.json, plan and apply create every
// module instance's objects in dependency order, a second plan has nothing
// to do, changing a module call's for_each keys creates the new instance's
// objects and destroys the old one's, and destroy removes everything.
func TestModulesExampleLifecycle(t *testing.T) {
	dir := copyTree(t, filepath.Join("..", "..", "examples", "modules"))
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden(t, "modules/init", r.stdout)
	manifest, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "modules.json", string(manifest), `{"Key":"","Source":"","Dir":"."}`, `{"Key":"service.instance","Source":"./modules/instance","Dir":"modules/service/modules/instance"}`)

	r = rig(t, dir, "plan", "-no-color")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "modules/plan", r.stdout)

	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-parallelism=1")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "modules/apply", r.stdout)
	got := stateAddresses(t, dir)
	want := []string{
		"terraform_data.load_balancer",
		`module.network.terraform_data.subnet["a"]`, `module.network.terraform_data.subnet["b"]`,
		"module.network.terraform_data.vpc",
		`module.service["api"].module.instance[0].terraform_data.server`,
		`module.service["api"].module.instance[1].terraform_data.server`,
		`module.service["web"].module.instance[0].terraform_data.server`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("state holds\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	sf, _ := readStateFile(t, dir)
	for _, res := range sf.Resources {
		if res.Name == "server" {
			if deps := strings.Join(res.Instances[0].Dependencies, ", "); deps != "module.network.terraform_data.subnet, module.network.terraform_data.vpc" {
				t.Errorf("%s records dependencies %s", res.Module, deps)
			}
		}
	}

	if r = rig(t, dir, "plan", "-detailed-exitcode", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "No changes.") {
		t.Fatalf("plan after apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "state", "list", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, `module.service["web"].module.instance[0].terraform_data.server`) {
		t.Fatalf("state list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "state", "show", "-no-color", `module.service["api"].module.instance[1].terraform_data.server`)
	if r.code != 0 || !strings.Contains(r.stdout, `name   = "api-1"`) {
		t.Fatalf("state show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A new for_each key and a key gone: the module instance's objects follow.
	r = rig(t, dir, "plan", "-no-color", `-var=services={"api":2,"db":1}`)
	if r.code != 0 {
		t.Fatalf("plan with new keys: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "modules/plan-keys", r.stdout)
	if r = rig(t, dir, "apply", "-auto-approve", "-no-color", `-var=services={"api":2,"db":1}`); r.code != 0 {
		t.Fatalf("apply with new keys: exit %d\n%s", r.code, r.stderr)
	}
	got = stateAddresses(t, dir)
	if slices.Contains(got, `module.service["web"].module.instance[0].terraform_data.server`) || !slices.Contains(got, `module.service["db"].module.instance[0].terraform_data.server`) {
		t.Fatalf("state after the key change:\n  %s", strings.Join(got, "\n  "))
	}

	// -replace reaches into module instances.
	r = rig(t, dir, "plan", "-no-color", `-var=services={"api":2,"db":1}`, `-replace=module.service["db"].module.instance[0].terraform_data.server`)
	if r.code != 0 || !strings.Contains(r.stdout, `module.service["db"].module.instance[0].terraform_data.server will be replaced, as requested`) {
		t.Fatalf("plan -replace: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	if r = rig(t, dir, "destroy", "-auto-approve", "-no-color", `-var=services={"api":2,"db":1}`); r.code != 0 {
		t.Fatalf("destroy: exit %d\n%s", r.code, r.stderr)
	}
	if sf, _ := readStateFile(t, dir); len(sf.Resources) != 0 {
		t.Fatalf("%d resources left after destroy", len(sf.Resources))
	}
}

// TestGitModuleSource installs a module from a git repository (a local bare
// repository, by file URL) at a tag and from a subdirectory, as init does
// for git:: sources, then plans and applies with it.
func TestGitModuleSource(t *testing.T) {
	repo := gitRepo(t, map[string]string{"naming/main.tf": `variable "prefix" {}
resource "terraform_data" "name" {
  input = "${var.prefix}-v1"
}
output "name" {
  value = terraform_data.name.output
}
`})

	dir := workDir(t, map[string]string{"main.tf": `module "naming" {
  source = "git::file://` + filepath.ToSlash(repo) + `//naming?ref=v1"
  prefix = "app"
}
output "name" {
  value = module.naming.name
}
`})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "- naming in .terraform/modules/naming/naming") {
		t.Errorf("init did not report the module's directory:\n%s", r.stdout)
	}
	if r = rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, `name = "app-v1"`) {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Without init, a changed source is reported, not silently used.
	writeFile(t, dir, "main.tf", strings.Replace(readFile(t, dir, "main.tf"), "ref=v1", "ref=v2", 1))
	if r = rig(t, dir, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "Module source has changed") {
		t.Fatalf("plan after a source change: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// realModulesConfig uses the random provider from a module called with
// for_each whose own module call uses count.
var realModulesConfig = map[string]string{
	"main.tf": `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
module "team" {
  source   = "./team"
  for_each = toset(["blue", "green"])
  name     = each.key
}
output "members" {
  value = { for k, t in module.team : k => t.members }
}
`,
	"team/main.tf": `variable "name" {}
resource "random_pet" "lead" {
  prefix = var.name
}
module "member" {
  source = "./member"
  count  = 2
  lead   = random_pet.lead.id
}
output "members" {
  value = module.member[*].id
}
`,
	"team/member/main.tf": `variable "lead" {}
resource "random_string" "id" {
  length  = 8
  special = false
  keepers = { lead = var.lead }
}
output "id" {
  value = random_string.id.result
}
`,
}

// TestRealProvidersInModules applies nested modules with a real provider
// and checks the state against Terraform (or OpenTofu) when installed:
// it plans no changes against the state rig wrote, and rig plans no
// changes against the state it wrote for the same configuration.
func TestRealProvidersInModules(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, realModulesConfig)
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	runOK(t, dir, "apply", "-auto-approve")
	if r := rig(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("plan after apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := stateAddresses(t, dir)
	for _, want := range []string{`module.team["blue"].random_pet.lead`, `module.team["green"].module.member[1].random_string.id`} {
		if !slices.Contains(got, want) {
			t.Errorf("state lacks %s:\n  %s", want, strings.Join(got, "\n  "))
		}
	}

	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Log("terraform is not installed: not checking the state with it")
		return
	}
	run := func(dir string, args ...string) (string, int) {
		cmd := exec.Command(tf, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			return err.Error(), -1
		}
		return string(out), 0
	}
	// Terraform against rig's state.
	other := workDir(t, realModulesConfig)
	writeFile(t, other, "terraform.tfstate", readFile(t, dir, "terraform.tfstate"))
	if out, code := run(other, "init", "-input=false", "-no-color", "-plugin-dir="+mirror); code != 0 {
		t.Skipf("terraform init failed (exit %d), not checking the state with it:\n%s", code, out)
	}
	if out, code := run(other, "plan", "-input=false", "-no-color", "-detailed-exitcode", "-lock=false"); code != 0 {
		t.Errorf("terraform plan against rig's state: exit %d, want 0\n%s", code, out)
	}
	// rig against Terraform's state.
	tfDir := workDir(t, realModulesConfig)
	if out, code := run(tfDir, "init", "-input=false", "-no-color", "-plugin-dir="+mirror); code != 0 {
		t.Fatalf("terraform init: exit %d\n%s", code, out)
	}
	if out, code := run(tfDir, "apply", "-input=false", "-no-color", "-auto-approve", "-lock=false"); code != 0 {
		t.Fatalf("terraform apply: exit %d\n%s", code, out)
	}
	if r := rig(t, tfDir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("rig plan against terraform's state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
