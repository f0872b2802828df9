package command

import (
	"strings"
	"testing"
)

// -invoke reads back from the provider only what the action refers to
// and what that depends on, as Terraform 1.16 does, with what -target
// names besides, and warns of no targeting; an action that refers to
// nothing refreshes nothing.
func TestActionsInvokeRefreshesWhatTheActionRefersTo(t *testing.T) {
	oplog := actionsWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_thing" "a" {
  name = "a"
}
resource "test_thing" "b" {
  name = "b"
}
resource "test_thing" "c" {
  name = "c-${test_thing.b.name}"
}
action "test_log" "x" {
  config {
    message = "hello ${test_thing.c.name}"
  }
}
action "test_log" "y" {
  config {
    message = "plain"
  }
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	readOps(t, oplog)
	tests := []struct {
		args      []string
		refreshed string
	}{
		{[]string{"-invoke=action.test_log.x"}, "bc"},
		{[]string{"-invoke=action.test_log.y"}, ""},
		{[]string{"-invoke=action.test_log.x", "-target=test_thing.a"}, "abc"},
		{[]string{"-invoke=action.test_log.y", "-target=test_thing.a"}, "a"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := mustRig(t, dir, append([]string{"apply", "-auto-approve", "-no-color"}, tt.args...)...)
			for _, name := range []string{"a", "b", "c"} {
				line := "test_thing." + name + ": Refreshing state"
				if strings.Contains(r.stdout, line) != strings.Contains(tt.refreshed, name) {
					t.Errorf("refreshed %q, want only %q:\n%s", name, tt.refreshed, r.stdout)
				}
			}
			if strings.Contains(r.stdout, "Resource targeting is in effect") || strings.Contains(r.stdout, "Applied changes may be incomplete") {
				t.Errorf("a targeting warning:\n%s", r.stdout)
			}
			if !strings.Contains(r.stdout, "Actions: 1 invoked.") {
				t.Errorf("the action did not run:\n%s", r.stdout)
			}
			readOps(t, oplog)
		})
	}
}
