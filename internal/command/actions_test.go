package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// actionsWorld sets up the plugin test provider and its operation log (the
// file every test_thing apply and every test_log/test_fail invocation
// appends a line to), which it returns.
func actionsWorld(t *testing.T) string {
	t.Helper()
	pluginWorld(t)
	oplog := filepath.Join(t.TempDir(), "ops")
	t.Setenv("RIG_TESTPROVIDER_OPLOG", oplog)
	return oplog
}

// readOps returns the operation log's lines and empties it.
func readOps(t *testing.T, oplog string) []string {
	t.Helper()
	b, err := os.ReadFile(oplog)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Remove(oplog); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", "_"))
}

func wantOps(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: operations that ran:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const actionsConfig = testFileProvider + `
variable "name" {
  default = "a"
}
variable "size" {
  default = 1
}
action "test_log" "before" {
  config {
    message = "before ${var.name}"
  }
}
action "test_log" "after" {
  count = 2
  config {
    message = "after ${count.index} ${self.id}"
  }
}
action "test_log" "gone" {
  config {
    message = "gone ${self.name}"
  }
}
resource "test_thing" "a" {
  name = var.name
  size = var.size
  lifecycle {
    action_trigger {
      events  = [before_create, before_update]
      actions = [action.test_log.before]
    }
    action_trigger {
      events    = [after_create, after_update]
      condition = var.name != "quiet"
      actions   = [action.test_log.after[1]]
    }
    action_trigger {
      events  = [before_destroy, after_destroy]
      actions = [action.test_log.gone]
    }
  }
}
resource "test_thing" "b" {
  name = "b-${test_thing.a.id}"
}
`

// Actions fire on their resource's events in rig's order of operations,
// as the provider saw them run: a before_* action after what the resource
// depends on and before its operation, an after_* action once the
// operation is done and before what depends on the resource; update and
// destroy events likewise, and a condition that does not hold fires
// nothing. The plan shows each invocation under its change.
func TestActionsRunInOrder(t *testing.T) {
	oplog := actionsWorld(t)
	dir := workDir(t, map[string]string{"main.tf": actionsConfig})
	r := mustRig(t, dir, "plan", "-no-color", "-out=tfplan")
	for _, want := range []string{
		"    # Actions to be invoked before this change in order:\n    # action.test_log.before\n    action \"test_log\" \"before\" {\n        config {\n            message = \"before a\"\n        }\n    }\n",
		"    # Actions to be invoked after this change in order:\n    # action.test_log.after[1]\n    action \"test_log\" \"after\" {\n        config {\n            message = (known after apply)\n        }\n    }\n",
		"Plan: 2 to add, 0 to change, 0 to destroy. Actions: 2 to invoke.",
		"  1. create test_thing.a (action.test_log.before first) (then action.test_log.after[1])\n  2. create test_thing.b ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan output lacks:\n%s\nin:\n%s", want, r.stdout)
		}
	}
	// explain shows the actions each operation runs, and when.
	r = mustRig(t, dir, "explain", "-no-color", "test_thing.a")
	want := "  step 1: create test_thing.a\n    waits for: nothing\n    runs actions:\n" +
		"      action.test_log.before (before_create, on_failure = halt), action_trigger at main.tf:34\n" +
		"        runs after everything this operation waits for, and before the operation starts; if it fails, the operation does not run\n" +
		"      action.test_log.after[1] (after_create, on_failure = halt), action_trigger at main.tf:38\n" +
		"        runs once the operation's result is recorded in state, and before anything that waits for this operation starts\n" +
		"    waited for by:\n      step 2: create test_thing.b\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("explain:\n%s\nwant it to contain:\n%s", r.stdout, want)
	}
	if strings.Contains(r.stdout+r.stderr, "Actions are not run") {
		t.Errorf("plan still warns that actions are not run:\n%s", r.stderr)
	}
	// The JSON plan lists them as Terraform 1.14 does.
	r = mustRig(t, dir, "show", "-json", "tfplan")
	var shown struct {
		ActionInvocations []map[string]any `json:"action_invocations"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil {
		t.Fatal(err)
	}
	gotJSON, _ := json.Marshal(shown.ActionInvocations)
	wantJSON := `[{"address":"action.test_log.before","config_sensitive":{},"config_unknown":{},"config_values":{"message":"before a"},"lifecycle_action_trigger":{"action_trigger_block_index":0,"action_trigger_event":"BeforeCreate","actions_list_index":0,"on_failure":"ActionOnFailureHalt","triggering_resource_address":"test_thing.a"},"name":"before","provider_name":"registry.terraform.io/rig/test","type":"test_log"},` +
		`{"address":"action.test_log.after[1]","config_sensitive":{},"config_unknown":{"message":true},"config_values":{},"lifecycle_action_trigger":{"action_trigger_block_index":1,"action_trigger_event":"AfterCreate","actions_list_index":0,"on_failure":"ActionOnFailureHalt","triggering_resource_address":"test_thing.a"},"name":"after","provider_name":"registry.terraform.io/rig/test","type":"test_log"}]`
	if string(gotJSON) != wantJSON {
		t.Errorf("action_invocations:\n%s\nwant:\n%s", gotJSON, wantJSON)
	}

	r = mustRig(t, dir, "apply", "-no-color", "tfplan")
	wantOps(t, "apply", readOps(t, oplog), "action_before_a", "create_a", "action_after_1_id-a", "create_b-id-a")
	checkContains(t, "apply output", r.stdout,
		// In Terraform's order: the operation is announced, its actions
		// run, then it is reported complete.
		"test_thing.a: Creating...\nAction started: action.test_log.before (triggered by test_thing.a)\nAction action.test_log.before (triggered by test_thing.a): logged before a\nAction complete: action.test_log.before (triggered by test_thing.a)\nAction started: action.test_log.after[1] (triggered by test_thing.a)\nAction action.test_log.after[1] (triggered by test_thing.a): logged after 1 id-a\nAction complete: action.test_log.after[1] (triggered by test_thing.a)\ntest_thing.a: Creation complete after",
		"Apply complete! Resources: 2 added, 0 changed, 0 destroyed. Actions: 2 invoked.",
	)

	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-var=size=2")
	wantOps(t, "update", readOps(t, oplog), "action_before_a", "update_a", "action_after_1_id-a")
	r = mustRig(t, dir, "plan", "-no-color", "-var=size=2")
	if !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after the apply:\n%s", r.stdout)
	}

	// A replacement fires the destroy events and the create events; the
	// after_create trigger's condition no longer holds.
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-var=size=2", "-var=name=quiet")
	wantOps(t, "replace", readOps(t, oplog), "delete_b-id-a", "action_gone_a", "delete_a", "action_gone_a", "action_before_quiet", "create_quiet", "create_b-id-quiet")

	mustRig(t, dir, "destroy", "-auto-approve", "-no-color", "-var=size=2", "-var=name=quiet")
	wantOps(t, "destroy", readOps(t, oplog), "delete_b-id-quiet", "action_gone_quiet", "delete_quiet", "action_gone_quiet")
}

// on_failure, as Terraform defines it: halt (the default) stops the
// operation a failing before_* action precedes; continue makes the
// failure a warning; taint marks the object an after_create action failed
// for tainted, so that the next plan replaces it.
func TestActionsOnFailure(t *testing.T) {
	oplog := actionsWorld(t)
	config := func(event, onFailure string) string {
		return testFileProvider + `
action "test_fail" "boom" {
  config {
    message = "boom"
  }
}
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    action_trigger {
      events     = [` + event + `]
      actions    = [action.test_fail.boom]
      on_failure = ` + onFailure + `
    }
  }
}
`
	}
	dir := workDir(t, map[string]string{"main.tf": config("before_create", "halt")})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Action failed") || !strings.Contains(r.stdout, "Action failed: action.test_fail.boom (triggered by test_thing.a)") {
		t.Errorf("halt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantOps(t, "halt", readOps(t, oplog), "fail_boom")

	writeFile(t, dir, "main.tf", config("before_create", "continue"))
	r = mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "Warning: Action failed") || !strings.Contains(r.stdout, "Actions: 1 invoked, 1 failed.") {
		t.Errorf("continue:\n%s%s", r.stdout, r.stderr)
	}
	wantOps(t, "continue", readOps(t, oplog), "fail_boom", "create_a")

	mustRig(t, dir, "destroy", "-auto-approve", "-no-color")
	readOps(t, oplog)
	writeFile(t, dir, "main.tf", config("after_create", "taint"))
	r = rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Action failed") {
		t.Errorf("taint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantOps(t, "taint", readOps(t, oplog), "create_a", "fail_boom")
	if got := string(stateInstance(t, dir, "test_thing", "a")["status"]); got != `"tainted"` {
		t.Errorf("status after a tainting action = %s", got)
	}
}

// apply -invoke runs the one action it names and nothing else, after a
// refresh of what -target selects; plan -invoke shows it, and a saved
// plan carries it.
func TestActionsInvoke(t *testing.T) {
	oplog := actionsWorld(t)
	dir := workDir(t, map[string]string{"main.tf": actionsConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	readOps(t, oplog)

	r := mustRig(t, dir, "plan", "-no-color", "-invoke=action.test_log.before", "-out=tfplan")
	want := "Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.\n\nrig will invoke the following action(s):\n\n  # action.test_log.before will be invoked\n    # action.test_log.before\n    action \"test_log\" \"before\" {\n        config {\n            message = \"before a\"\n        }\n    }\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("plan -invoke:\n%s\nwant it to contain:\n%s", r.stdout, want)
	}
	r = mustRig(t, dir, "apply", "-no-color", "tfplan")
	if !strings.Contains(r.stdout, "Action complete: action.test_log.before (triggered by CLI)") || !strings.Contains(r.stdout, "Actions: 1 invoked.") {
		t.Errorf("apply of the saved plan:\n%s", r.stdout)
	}
	wantOps(t, "saved -invoke plan", readOps(t, oplog), "action_before_a")

	// Invoking an action is a change: the plan says so, and apply asks.
	r = rig(t, dir, "plan", "-no-color", "-invoke=action.test_log.before", "-detailed-exitcode")
	if r.code != 2 {
		t.Errorf("plan -invoke -detailed-exitcode: exit %d\n%s", r.code, r.stderr)
	}
	r = rigInput(t, dir, "no\n", "apply", "-no-color", "-invoke=action.test_log.before")
	if r.code != 1 || !strings.Contains(r.stdout, "Do you want to perform these actions?") || !strings.Contains(r.stderr, "Apply cancelled.") {
		t.Errorf("apply -invoke answered no: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantOps(t, "cancelled -invoke", readOps(t, oplog))

	r = mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-invoke=action.test_log.before", "-target=test_thing.a")
	if !strings.Contains(r.stdout, "test_thing.a: Refreshing state") || strings.Contains(r.stdout, "test_thing.b: Refreshing state") {
		t.Errorf("apply -invoke -target refreshes:\n%s", r.stdout)
	}
	wantOps(t, "apply -invoke -target", readOps(t, oplog), "action_before_a")

	for _, tc := range []struct{ args, want string }{
		{"-invoke=action.test_log.after[7]", "Error: Reference to non-existent action instance"},
		{"-invoke=action.test_log.nope", "Error: Reference to undeclared action"},
		{"-invoke=test_thing.a", "Error: Invalid target \"test_thing.a\""},
		{"-invoke=action.test_log.before -invoke=action.test_log.gone", "Only one action can be invoked at a time."},
		{"-invoke=action.test_log.before -destroy", "Error: Incompatible plan mode options"},
	} {
		r := rig(t, dir, append([]string{"apply", "-auto-approve", "-no-color"}, strings.Fields(tc.args)...)...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("apply %s: exit %d\n%s\nwant it to contain %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	wantOps(t, "refused invocations", readOps(t, oplog))
}

// The -json stream of a plan lists each planned invocation, and an
// apply's reports each action's start, progress and end with the
// messages Terraform 1.14 writes.
func TestActionsJSONMessages(t *testing.T) {
	oplog := actionsWorld(t)
	dir := workDir(t, map[string]string{"main.tf": actionsConfig})
	r := mustRig(t, dir, "apply", "-auto-approve", "-json")
	readOps(t, oplog)
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if strings.Contains(msg.Type, "action") || msg.Type == "change_summary" {
			types = append(types, msg.Type+" "+msg.Message)
		}
	}
	want := []string{
		"planned_action_invocation planned action invocation: action.test_log.before",
		"planned_action_invocation planned action invocation: action.test_log.after[1]",
		"change_summary Plan: 2 to add, 0 to change, 0 to destroy. Actions: 2 to invoke.",
		"action_start test_thing.a.trigger[0]: Action started: action.test_log.before",
		"action_progress test_thing.a (0): action.test_log.before - logged before a",
		"action_complete test_thing.a (0): Action complete: action.test_log.before",
		"action_start test_thing.a.trigger[1]: Action started: action.test_log.after[1]",
		"action_progress test_thing.a (1): action.test_log.after[1] - logged after 1 id-a",
		"action_complete test_thing.a (1): Action complete: action.test_log.after[1]",
		"change_summary Apply complete! Resources: 2 added, 0 changed, 0 destroyed. Actions: 2 invoked.",
	}
	if strings.Join(types, "\n") != strings.Join(want, "\n") {
		t.Errorf("action messages:\n%s\nwant:\n%s", strings.Join(types, "\n"), strings.Join(want, "\n"))
	}
}

// What is wrong in an action trigger or an action block is an error with
// Terraform's words.
func TestActionsInvalid(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_thing" "r" {
  name = "r"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.test_log.missing]
    }
  }
}
`})
	r := rig(t, dir, "validate", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Reference to undeclared action") {
		t.Errorf("validate of an undeclared action: exit %d\n%s", r.code, r.stderr)
	}

	// What an action block and a trigger's condition refer to is checked
	// like any other expression.
	writeFile(t, dir, "main.tf", testFileProvider+`
action "test_log" "hello" {
  count = var.n
  config {
    message = local.missing
  }
}
resource "test_thing" "r" {
  name = "r"
  lifecycle {
    action_trigger {
      events    = [after_create]
      condition = test_thing.nope.id == ""
      actions   = [action.test_log.hello[0]]
    }
  }
}
`)
	r = rig(t, dir, "validate", "-no-color")
	for _, want := range []string{
		"Error: Reference to undeclared input variable\n\n  on main.tf line 9, in action \"test_log\" \"hello\":",
		"Error: Reference to undeclared local value\n\n  on main.tf line 11, in action \"test_log\" \"hello\":",
		"Error: Reference to undeclared resource\n\n  on main.tf line 19, in resource \"test_thing\" \"r\":",
	} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("validate: exit %d\n%s\nwant it to contain:\n%s", r.code, r.stderr, want)
		}
	}

	// validate checks every action against its provider's schema, whether
	// or not anything triggers it.
	writeFile(t, dir, "main.tf", testFileProvider+`
action "test_log" "typo" {
  config {
    mesage = "hi"
  }
}
action "test_nope" "x" {}
`)
	r = rig(t, dir, "validate", "-no-color")
	for _, want := range []string{"Error: Unsupported argument\n\n  on main.tf line 10, in action \"test_log\" \"typo\":", "Error: Invalid action type"} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("validate: exit %d\n%s\nwant it to contain %q", r.code, r.stderr, want)
		}
	}

	// The provider refuses a configuration when the plan is made; an
	// action type it does not have is refused too.
	writeFile(t, dir, "main.tf", testFileProvider+`
action "test_log" "bad" {
  config {
    message = "invalid"
  }
}
action "test_nope" "x" {}
resource "test_thing" "r" {
  name = "r"
  lifecycle {
    action_trigger {
      events  = [before_create]
      actions = [action.test_log.bad, action.test_nope.x]
    }
  }
}
`)
	r = rig(t, dir, "plan", "-no-color")
	for _, want := range []string{"Error: Invalid message", "Error: Invalid action type"} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("plan: exit %d\n%s\nwant it to contain %q", r.code, r.stderr, want)
		}
	}
}

// Actions of a child module, with for_each, fired by the instance whose
// key the trigger names, and invoked by their module address.
func TestActionsInModules(t *testing.T) {
	oplog := actionsWorld(t)
	dir := workDir(t, map[string]string{
		"main.tf": testFileProvider + `
module "m" {
  source = "./m"
}
`,
		"m/main.tf": testFileProvider + `
action "test_log" "each" {
  for_each = toset(["x", "y"])
  config {
    message = "each ${each.key} ${self.name}"
  }
}
resource "test_thing" "t" {
  for_each = toset(["x", "y"])
  name     = "t${each.key}"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.test_log.each[each.key]]
    }
  }
}
`})
	mustRig(t, dir, "init", "-no-color")
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "Action complete: module.m.action.test_log.each[\"y\"] (triggered by module.m.test_thing.t[\"y\"])") {
		t.Errorf("apply:\n%s", r.stdout)
	}
	ops := readOps(t, oplog)
	for _, key := range []string{"x", "y"} {
		create, action := slices.Index(ops, "create_t"+key), slices.Index(ops, "action_each_"+key+"_t"+key)
		if create < 0 || action < create {
			t.Errorf("the action of t[%q] did not run after its create: %q", key, ops)
		}
	}
	if len(ops) != 4 {
		t.Errorf("operations: %q", ops)
	}
	r = rig(t, dir, "apply", "-auto-approve", "-no-color", `-invoke=module.m.action.test_log.each["x"]`)
	if r.code != 1 || !strings.Contains(r.stderr, "Invalid \"self\" reference") {
		t.Errorf("invoking an action whose configuration needs self: exit %d\n%s", r.code, r.stderr)
	}
	wantOps(t, "invoke", readOps(t, oplog))
}
