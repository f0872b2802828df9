package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const protectProviders = `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
`

// protectedConfig is a configuration whose objects set prevent_destroy:
// a resource, two of a counted resource, and one in a module.
var protectedConfig = map[string]string{
	"main.tf": protectProviders + `resource "test_thing" "a" {
  name = "a"
  lifecycle {
    prevent_destroy = true
  }
}
resource "test_thing" "b" {
  count = 2
  name  = "b${count.index}"
  lifecycle {
    prevent_destroy = true
  }
}
resource "test_thing" "c" {
  name = "c"
}
module "m" {
  source = "./m"
}
`,
	"m/main.tf": protectProviders + `resource "test_thing" "d" {
  name = "d"
  lifecycle {
    prevent_destroy = true
  }
}
`,
	"rig.hcl": "record_prevent_destroy = true\n",
}

// recordedProtection returns each object's rig_prevent_destroy in the
// state file of dir, by address.
func recordedProtection(t *testing.T, dir string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var sf struct {
		Resources []struct {
			Module, Type, Name string
			Instances          []struct {
				IndexKey       any    `json:"index_key"`
				PreventDestroy string `json:"rig_prevent_destroy"`
			}
		}
	}
	if err := json.Unmarshal(raw, &sf); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range sf.Resources {
		for _, in := range r.Instances {
			addr := r.Type + "." + r.Name
			if r.Module != "" {
				addr = r.Module + "." + addr
			}
			if in.IndexKey != nil {
				b, _ := json.Marshal(in.IndexKey)
				addr += "[" + string(b) + "]"
			}
			out[addr] = in.PreventDestroy
		}
	}
	return out
}

// TestRecordedPreventDestroy: with record_prevent_destroy, an object's
// protection is recorded with it and outlives its resource block, its
// count and its module: the plan that would destroy it is refused, naming
// the object, where the protection was set and how to lift it, and still
// shows every change, the refused ones marked. rig state unprotect and a
// removed block with destroy = false lift it.
func TestRecordedPreventDestroy(t *testing.T) {
	dir := workDir(t, protectedConfig)
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	want := map[string]string{
		"test_thing.a": "main.tf:9", "test_thing.b[0]": "main.tf:16", "test_thing.b[1]": "main.tf:16",
		"test_thing.c": "", "module.m.test_thing.d": "m/main.tf:9",
	}
	got := recordedProtection(t, dir)
	for addr, at := range want {
		if got[addr] != at {
			t.Errorf("after apply, %s records %q, want %q", addr, got[addr], at)
		}
	}

	// The block of a gone, b's count down to one, the module removed, and
	// an unprotected change beside them.
	writeFile(t, dir, "main.tf", protectProviders+`resource "test_thing" "b" {
  count = 1
  name  = "b${count.index}"
  lifecycle {
    prevent_destroy = true
  }
}
resource "test_thing" "c" {
  name = "c"
  size = 2
}
`)
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 1 {
		t.Fatalf("plan: exit %d, want 1\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "plan", r.stdout,
		"# test_thing.a will be destroyed",
		"# (refused: protected by the prevent_destroy set at main.tf:9, recorded in state)",
		"# test_thing.b[1] will be destroyed",
		"# (refused: protected by the prevent_destroy set at main.tf:16, recorded in state)",
		"# module.m.test_thing.d will be destroyed",
		"# (refused: protected by the prevent_destroy set at m/main.tf:9, recorded in state)",
		"# test_thing.c will be updated in-place",
		"Plan: 0 to add, 1 to change, 3 to destroy.",
		"3 of these destroys are refused",
	)
	stderr := oneLine(r.stderr)
	for _, want := range []string{
		"Error: Resource instance cannot be destroyed",
		"Resource instance test_thing.a is protected: lifecycle.prevent_destroy was set at main.tf:9 when it was last applied, and the state records it, but the plan calls for it to be destroyed (its resource block is no longer in the configuration).",
		"Resource instance test_thing.b[1] is protected: lifecycle.prevent_destroy was set at main.tf:16",
		"(its instance is no longer declared (count, for_each or its module's instances changed))",
		"removed { from = test_thing.a lifecycle { destroy = false } }",
		"rig state unprotect 'test_thing.a'",
		"removed { from = module.m.test_thing.d",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("plan's errors do not say %q:\n%s", want, r.stderr)
		}
	}
	// explain tells why the deletion is refused.
	if r := rig(t, dir, "explain", "-no-color", "test_thing.a"); !strings.Contains(oneLine(r.stdout), "its deletion is refused: the state records the lifecycle.prevent_destroy set at main.tf:9") {
		t.Errorf("explain test_thing.a: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Apply refuses the same plan and changes nothing.
	before, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "test_thing.a is protected") {
		t.Fatalf("apply: exit %d, want 1 refusing test_thing.a\n%s", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); string(after) != string(before) {
		t.Errorf("a refused apply changed the state")
	}
	// -json: the refusals are error diagnostics naming each object, and
	// the planned changes are listed.
	r = rig(t, dir, "plan", "-json")
	if r.code != 1 || !strings.Contains(r.stdout, `"type":"planned_change"`) || !strings.Contains(r.stdout, `"address":"test_thing.a"`) ||
		!strings.Contains(r.stdout, `"summary":"Resource instance cannot be destroyed"`) {
		t.Errorf("plan -json: exit %d\n%s", r.code, r.stdout)
	}

	// Lifting: unprotect a, forget the module's object with a removed block.
	if r := rigOK(t, dir, "state", "unprotect", "test_thing.a"); !strings.Contains(r.stdout, "test_thing.a is no longer protected: the prevent_destroy set at main.tf:9 is lifted") {
		t.Errorf("state unprotect: %s", r.stdout)
	}
	if r := rig(t, dir, "state", "unprotect", "test_thing.c"); r.code != 1 || !strings.Contains(r.stderr, "Resource instance is not protected") {
		t.Errorf("state unprotect of an unprotected object: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "removed.tf", `removed {
  from = module.m.test_thing.d
  lifecycle {
    destroy = false
  }
}
`)
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || strings.Contains(r.stderr, "test_thing.a is protected") || strings.Contains(r.stderr, "test_thing.d is protected") ||
		!strings.Contains(r.stderr, "test_thing.b[1] is protected") || !strings.Contains(r.stdout, "# module.m.test_thing.d will no longer be managed by rig") {
		t.Fatalf("plan after lifting a and d: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Without record_prevent_destroy, records are kept as they are, even
	// where the configuration no longer sets prevent_destroy; b[1] is let
	// go, as its configuration no longer protects it either.
	os.Remove(filepath.Join(dir, "rig.hcl"))
	rigOK(t, dir, "state", "unprotect", "test_thing.b[1]")
	writeFile(t, dir, "main.tf", protectProviders+`resource "test_thing" "b" {
  count = 1
  name  = "b${count.index}"
}
resource "test_thing" "c" {
  name = "c"
  size = 2
}
`)
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	got = recordedProtection(t, dir)
	if len(got) != 2 || got["test_thing.b[0]"] != "main.tf:16" || got["test_thing.c"] != "" {
		t.Errorf("after the apply, the state records %v; want b[0] at main.tf:16 and c unprotected", got)
	}

	// rig destroy is refused for what is still protected, even with its
	// protection gone from the configuration.
	os.Remove(filepath.Join(dir, "removed.tf"))
	r = rig(t, dir, "destroy", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(oneLine(r.stderr), "Resource instance test_thing.b[0] is protected: lifecycle.prevent_destroy was set at main.tf:16 when it was last applied, and the state records it, but the plan calls for it to be destroyed (this is a destroy plan).") ||
		!strings.Contains(r.stdout, "# test_thing.c will be destroyed") {
		t.Fatalf("destroy: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// With record_prevent_destroy again, an apply of the configuration
	// without prevent_destroy lifts the record, and destroy goes ahead.
	writeFile(t, dir, "rig.hcl", "record_prevent_destroy = true\n")
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	if got := recordedProtection(t, dir); got["test_thing.b[0]"] != "" {
		t.Errorf("after applying without prevent_destroy, b[0] records %q", got["test_thing.b[0]"])
	}
	rigOK(t, dir, "destroy", "-auto-approve", "-no-color")
}

// TestPreventDestroyNotRecordedByDefault: without record_prevent_destroy
// the state is what it was: no record, and a deleted block's object is
// destroyed as OpenTofu destroys it.
func TestPreventDestroyNotRecordedByDefault(t *testing.T) {
	files := map[string]string{}
	for k, v := range protectedConfig {
		if k != "rig.hcl" {
			files[k] = v
		}
	}
	dir := workDir(t, files)
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	raw, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if strings.Contains(string(raw), "rig_prevent_destroy") {
		t.Fatalf("the state records prevent_destroy without record_prevent_destroy:\n%s", raw)
	}
	writeFile(t, dir, "main.tf", protectProviders)
	os.RemoveAll(filepath.Join(dir, "m"))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
}

// protectInteropConfig is the configuration of testdata/protect: rig
// applied a and b (rig.tfstate), then OpenTofu 1.12.6 applied c and
// rewrote the state (opentofu-1.12.6.tfstate).
const protectInteropConfig = `resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    prevent_destroy = true
  }
}
resource "terraform_data" "b" {
  input = "b"
  lifecycle {
    prevent_destroy = true
  }
}
resource "terraform_data" "c" {
  input = "c"
}
`

// TestPreventDestroyRecordAfterOpenTofu: OpenTofu reads a state holding
// rig's records and drops them when it rewrites the state (the record is a
// field it does not know). rig then knows only the configuration's
// protection: an object whose block is deleted before rig applies again is
// destroyed as OpenTofu would; the next rig apply records the protection
// of every object whose configuration still sets it.
func TestPreventDestroyRecordAfterOpenTofu(t *testing.T) {
	rigState, err := os.ReadFile(filepath.Join("testdata", "protect", "rig.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	tofuState, err := os.ReadFile(filepath.Join("testdata", "protect", "opentofu-1.12.6.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rigState), `"rig_prevent_destroy": "main.tf:4"`) || strings.Contains(string(tofuState), "rig_prevent_destroy") {
		t.Fatal("the fixtures are not a rig state with records and OpenTofu's rewrite of it")
	}
	files := map[string]string{"main.tf": protectInteropConfig, "rig.hcl": "record_prevent_destroy = true\n", "terraform.tfstate": string(tofuState)}

	// The block of a deleted right after OpenTofu's rewrite: destroyed.
	dir := workDir(t, files)
	writeFile(t, dir, "main.tf", strings.Replace(protectInteropConfig, `resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    prevent_destroy = true
  }
}
`, "", 1))
	if r := rig(t, dir, "plan", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "# terraform_data.a will be destroyed") {
		t.Errorf("plan after OpenTofu's rewrite: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// A rig apply first records the protection again.
	dir = workDir(t, files)
	r := rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("apply after OpenTofu's rewrite planned changes:\n%s", r.stdout)
	}
	if got := recordedProtection(t, dir); got["terraform_data.a"] != "main.tf:4" || got["terraform_data.b"] != "main.tf:10" || got["terraform_data.c"] != "" {
		t.Errorf("after rig's apply the state records %v", got)
	}
	writeFile(t, dir, "main.tf", strings.Replace(protectInteropConfig, `resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    prevent_destroy = true
  }
}
`, "", 1))
	if r := rig(t, dir, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "terraform_data.a is protected") {
		t.Errorf("plan after rig recorded again: exit %d\n%s", r.code, r.stderr)
	}
}
