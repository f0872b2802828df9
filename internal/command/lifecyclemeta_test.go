package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plannedChange is one resource_changes entry of a saved plan's JSON.
type plannedChange struct {
	Actions []string
	Reason  string
}

// savedPlanChanges plans with args, saves the plan and returns its
// resource changes by address (from `rig show -json`) and the human plan.
func savedPlanChanges(t *testing.T, dir string, args ...string) (map[string]plannedChange, string) {
	t.Helper()
	r := rig(t, dir, append([]string{"plan", "-no-color", "-out=saved.plan"}, args...)...)
	if r.code != 0 {
		t.Fatalf("plan %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	var pj struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions []string `json:"actions"`
			} `json:"change"`
			ActionReason string `json:"action_reason"`
		} `json:"resource_changes"`
	}
	show := mustRig(t, dir, "show", "-json", "saved.plan")
	if err := json.Unmarshal([]byte(show.stdout), &pj); err != nil {
		t.Fatalf("show -json: %v\n%s", err, show.stdout)
	}
	out := map[string]plannedChange{}
	for _, rc := range pj.ResourceChanges {
		out[rc.Address] = plannedChange{Actions: rc.Change.Actions, Reason: rc.ActionReason}
	}
	return out, r.stdout + r.stderr
}

// instanceFlags returns each instance of the state file in dir, by
// address, with its skip_destroy flag.
func instanceFlags(t *testing.T, dir string) map[string]bool {
	t.Helper()
	sf, _ := readStateFile(t, dir)
	out := map[string]bool{}
	for _, r := range sf.Resources {
		for _, inst := range r.Instances {
			addr := r.Type + "." + r.Name
			if r.Mode == "data" {
				addr = "data." + addr
			}
			if r.Module != "" {
				addr = r.Module + "." + addr
			}
			switch k := inst.IndexKey.(type) {
			case float64:
				addr += fmt.Sprintf("[%d]", int(k))
			case string:
				addr += `["` + k + `"]`
			}
			out[addr] = inst.SkipDestroy
		}
	}
	return out
}

func wantChange(t *testing.T, changes map[string]plannedChange, addr, actions, reason string) {
	t.Helper()
	c, ok := changes[addr]
	if !ok {
		t.Errorf("no change for %s in %v", addr, changes)
		return
	}
	if got := strings.Join(c.Actions, ","); got != actions || c.Reason != reason {
		t.Errorf("%s: actions %s reason %q, want %s reason %q", addr, got, c.Reason, actions, reason)
	}
}

// lifecycle.enabled (OpenTofu 1.11) on a resource, a data source and a
// module call: one instance without a key while true, none while false
// (its objects destroyed, the data source dropped from state, references
// null), and a resource or module that had count = 1 keeps its object.
func TestLifecycleEnabled(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `variable "on" {
  type    = bool
  default = true
}
resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    enabled = var.on
  }
}
data "terraform_remote_state" "d" {
  backend = "local"
  config  = { path = "other.tfstate" }
  lifecycle {
    enabled = var.on
  }
}
module "m" {
  source = "./m"
  lifecycle {
    enabled = var.on
  }
}
output "a" {
  value = terraform_data.a == null ? "off" : terraform_data.a.output
}
output "m" {
  value = module.m == null ? "off" : module.m.r
}
`,
		"m/main.tf": `resource "terraform_data" "r" {
  input = "r"
}
output "r" {
  value = terraform_data.r.output
}
`,
		"other.tfstate": `{"version": 4, "terraform_version": "1.10.6", "serial": 1, "lineage": "aaaa", "outputs": {"x": {"value": "hi", "type": "string"}}, "resources": []}`,
	})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	got := instanceFlags(t, dir)
	for _, addr := range []string{"terraform_data.a", "data.terraform_remote_state.d", "module.m.terraform_data.r"} {
		if _, ok := got[addr]; !ok {
			t.Errorf("state lacks %s: %v", addr, got)
		}
	}

	changes, human := savedPlanChanges(t, dir, "-var=on=false")
	wantChange(t, changes, "terraform_data.a", "delete", "delete_because_enabled_false")
	wantChange(t, changes, "module.m.terraform_data.r", "delete", "delete_because_no_module")
	checkContains(t, "plan", human,
		"# terraform_data.a will be destroyed\n  # (because enabled is false)",
		"# module.m.terraform_data.r will be destroyed\n  # (because module.m is not in configuration)",
		`~ a = "a" -> "off"`,
		"Plan: 0 to add, 0 to change, 2 to destroy.",
	)
	ex := mustRig(t, dir, "explain", "-no-color", "terraform_data.a", "saved.plan")
	if !strings.Contains(ex.stdout, "its lifecycle.enabled is false") {
		t.Errorf("explain does not say why:\n%s", ex.stdout)
	}
	mustRig(t, dir, "apply", "-no-color", "saved.plan")
	if got := instanceFlags(t, dir); len(got) != 0 {
		t.Errorf("state after disabling holds %v, want nothing", got)
	}
	if r := mustRig(t, dir, "output", "-raw", "a"); r.stdout != "off" {
		t.Errorf("output a = %q, want off", r.stdout)
	}

	// Back on, and from count = 1 to enabled: the object keeps its place.
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	src, _ := os.ReadFile(filepath.Join(dir, "main.tf"))
	writeFile(t, dir, "main.tf", strings.Replace(strings.Replace(string(src), "lifecycle {\n    enabled = var.on\n  }\n}\ndata", "count = 1\n}\ndata", 1),
		"terraform_data.a == null ? \"off\" : terraform_data.a.output", "terraform_data.a[0].output", 1))
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if _, ok := instanceFlags(t, dir)["terraform_data.a[0]"]; !ok {
		t.Fatalf("count = 1 did not move terraform_data.a to [0]: %v", instanceFlags(t, dir))
	}
	writeFile(t, dir, "main.tf", string(src))
	r := mustRig(t, dir, "plan", "-no-color")
	if !strings.Contains(r.stdout, "# terraform_data.a[0] has moved to terraform_data.a") || !strings.Contains(r.stdout, "Plan: 0 to add, 0 to change, 0 to destroy.") {
		t.Errorf("count to enabled is not a move:\n%s", r.stdout)
	}
}

// The configuration errors of lifecycle.enabled, as OpenTofu words them.
func TestLifecycleEnabledErrors(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
	}{
		{"with count", `resource "terraform_data" "a" {
  count = 1
  lifecycle {
    enabled = true
  }
}`, `Invalid combination of "count" and "enabled"`},
		{"unknown", `resource "terraform_data" "u" {}
resource "terraform_data" "a" {
  lifecycle {
    enabled = terraform_data.u.id != ""
  }
}`, `The given "enabled" argument value is derived from a value that won't be known until the apply phase`},
		{"null", `resource "terraform_data" "a" {
  lifecycle {
    enabled = null
  }
}`, `The given "enabled" argument value is unsuitable: the given value is null.`},
		{"instance key", `resource "terraform_data" "a" {
  lifecycle {
    enabled = true
  }
}
output "o" {
  value = terraform_data.a[0]
}`, "Unexpected resource instance key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": tc.config + "\n"})
			r := rig(t, dir, "plan", "-no-color")
			if r.code != 1 || !strings.Contains(oneLine(r.stderr), tc.want) {
				t.Errorf("plan: exit %d, want 1 with %q\n%s", r.code, tc.want, r.stderr)
			}
		})
	}
}

// lifecycle.destroy = false (OpenTofu 1.12, Terraform 1.16): the setting is
// recorded in state (skip_destroy); an instance beyond a shrunk count or
// whose block is gone is forgotten, with OpenTofu's action reasons; a
// replacement forgets the old object; and destroy forgets too, failing
// unless -suppress-forget-errors.
func TestLifecycleDestroyFalse(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    destroy = false
  }
}
resource "terraform_data" "b" {
  count = 2
  input = "b"
  lifecycle {
    destroy = false
  }
}
resource "terraform_data" "c" {
  input = "c"
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	want := map[string]bool{"terraform_data.a": true, "terraform_data.b[0]": true, "terraform_data.b[1]": true, "terraform_data.c": false}
	if got := instanceFlags(t, dir); !mapsEqual(got, want) {
		t.Errorf("skip_destroy after apply = %v, want %v", got, want)
	}

	writeFile(t, dir, "main.tf", `resource "terraform_data" "b" {
  count = 1
  input = "b"
  lifecycle {
    destroy = false
  }
}
resource "terraform_data" "c" {
  input = "c"
  lifecycle {
    destroy = false
  }
}
`)
	changes, human := savedPlanChanges(t, dir)
	wantChange(t, changes, "terraform_data.a", "forget", "forgot_because_lifecycle_destroy_in_state")
	wantChange(t, changes, "terraform_data.b[1]", "forget", "forgot_because_lifecycle_destroy_in_config")
	wantChange(t, changes, "terraform_data.c", "no-op", "")
	checkContains(t, "plan", human,
		"  . forget",
		"# terraform_data.a will no longer be managed by rig, but will not be destroyed\n  # (because lifecycle.destroy = false was configured before this resource was removed from the configuration)",
		"# terraform_data.b[1] will no longer be managed by rig, but will not be destroyed\n  # (because lifecycle.destroy = false is set in the configuration)",
		"Plan: 0 to add, 0 to change, 0 to destroy, 2 to forget.",
		"Warning: Resource will be removed from the state",
		"the resource terraform_data.a will not be managed",
	)
	stream := mustRig(t, dir, "plan", "-json")
	if !strings.Contains(stream.stdout, `"terraform_data.a: Plan to remove"`) || !strings.Contains(stream.stdout, `"forget":2`) {
		t.Errorf("-json stream lacks the forget change or count:\n%s", stream.stdout)
	}
	r := mustRig(t, dir, "apply", "-no-color", "saved.plan")
	if !strings.Contains(r.stdout, "Apply complete! Resources: 0 added, 0 changed, 0 destroyed, 2 forgotten.") {
		t.Errorf("apply summary:\n%s", r.stdout)
	}
	want = map[string]bool{"terraform_data.b[0]": true, "terraform_data.c": true}
	if got := instanceFlags(t, dir); !mapsEqual(got, want) {
		t.Errorf("skip_destroy after forgetting = %v, want %v (a no-op records the setting)", got, want)
	}

	// A replacement forgets the old object and creates the new one.
	changes, human = savedPlanChanges(t, dir, "-replace=terraform_data.c")
	wantChange(t, changes, "terraform_data.c", "forget,create", "replace_by_request")
	checkContains(t, "plan", human,
		"./+ forget and then create replacement",
		"# terraform_data.c will be replaced, as requested - older instance will not be destroyed (lifecycle.destroy = false)",
		"Plan: 1 to add, 0 to change, 0 to destroy, 1 to forget.",
	)
	before := readStateID(t, dir, "c")
	r = mustRig(t, dir, "apply", "-no-color", "saved.plan")
	if !strings.Contains(r.stdout, "terraform_data.c: Creating...") || !strings.Contains(r.stdout, "1 added, 0 changed, 0 destroyed, 1 forgotten.") {
		t.Errorf("forget-then-create apply:\n%s", r.stdout)
	}
	if after := readStateID(t, dir, "c"); after == before || after == "" {
		t.Errorf("terraform_data.c id %q after replacement, was %q", after, before)
	}

	// destroy forgets both and fails, unless -suppress-forget-errors.
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	r = rig(t, dir, "destroy", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Destroy was successful but left behind forgotten instances") || !strings.Contains(r.stdout, "Plan: 0 to add, 0 to change, 0 to destroy, 2 to forget.") {
		t.Errorf("destroy: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := instanceFlags(t, dir); len(got) != 0 {
		t.Errorf("state after destroy holds %v", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := rig(t, dir, "destroy", "-auto-approve", "-no-color", "-suppress-forget-errors"); r.code != 0 {
		t.Errorf("destroy -suppress-forget-errors: exit %d\n%s", r.code, r.stderr)
	}
}

// readStateID returns the id of the object of terraform_data.NAME.
func readStateID(t *testing.T, dir, name string) string {
	t.Helper()
	sf, _ := readStateFile(t, dir)
	for _, r := range sf.Resources {
		if r.Name != name {
			continue
		}
		for _, inst := range r.Instances {
			var attrs struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(inst.Attributes, &attrs)
			return attrs.ID
		}
	}
	return ""
}

// oneLine joins the lines of word-wrapped output with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// prevent_destroy from a variable or a local value (OpenTofu 1.12): the
// plan that would destroy a protected object fails with OpenTofu's error,
// the same plan with the protection turned off goes ahead, and the
// references OpenTofu refuses (count.index, each) fail validation.
func TestPreventDestroyExpression(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `variable "protect" {
  type    = bool
  default = true
}
locals {
  protect_b = var.protect
}
resource "terraform_data" "a" {
  lifecycle {
    prevent_destroy = var.protect
  }
}
resource "terraform_data" "b" {
  lifecycle {
    prevent_destroy = local.protect_b
  }
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	r := rig(t, dir, "plan", "-destroy", "-no-color")
	for _, want := range []string{
		"Error: Resource instance cannot be destroyed",
		"Resource instance terraform_data.a has prevent_destroy set, but the plan calls for it to be destroyed.",
		`-exclude="terraform_data.b"`,
	} {
		if r.code != 1 || !strings.Contains(oneLine(r.stderr), want) {
			t.Errorf("plan -destroy: exit %d, want 1 with %q\n%s", r.code, want, r.stderr)
		}
	}
	if r := rig(t, dir, "destroy", "-auto-approve", "-no-color", "-var=protect=false"); r.code != 0 || !strings.Contains(r.stdout, "Destroy complete! Resources: 2 destroyed.") {
		t.Errorf("destroy with protect=false: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	writeFile(t, dir, "main.tf", `resource "terraform_data" "c" {
  count = 2
  lifecycle {
    prevent_destroy = count.index == 0
  }
}
resource "terraform_data" "d" {
  lifecycle {
    prevent_destroy = "maybe"
  }
}
`)
	r = rig(t, dir, "validate", "-no-color")
	for _, want := range []string{
		"Error: Invalid reference in prevent_destroy",
		"A prevent_destroy argument cannot refer to count.index",
		"Error: Invalid value for prevent_destroy",
		"has an invalid value for its prevent_destroy argument: a bool is required.",
	} {
		if r.code != 1 || !strings.Contains(oneLine(r.stderr), want) {
			t.Errorf("validate: exit %d, want 1 with %q\n%s", r.code, want, r.stderr)
		}
	}
}

// replace_triggered_by fires when the referenced object is created again
// (here after it left the state), as in OpenTofu 1.12.
func TestReplaceTriggeredByCreate(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "src" {}
resource "terraform_data" "dep" {
  lifecycle {
    replace_triggered_by = [terraform_data.src]
  }
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	mustRig(t, dir, "state", "rm", "terraform_data.src")
	changes, human := savedPlanChanges(t, dir)
	wantChange(t, changes, "terraform_data.src", "create", "")
	wantChange(t, changes, "terraform_data.dep", "delete,create", "replace_by_triggers")
	if !strings.Contains(human, "# terraform_data.dep will be replaced due to changes in replace_triggered_by") {
		t.Errorf("plan:\n%s", human)
	}
}
