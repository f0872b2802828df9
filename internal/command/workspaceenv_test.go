package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkspaceEnvInPipelines: what a pipeline that sets TF_WORKSPACE
// does with the workspace commands, as OpenTofu answers it.
func TestWorkspaceEnvInPipelines(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})

	// The workspace TF_WORKSPACE names may be created (and is recorded
	// as selected); another one may not.
	t.Setenv("TF_WORKSPACE", "ci")
	r := rig(t, dir, "workspace", "new", "-no-color", "ci")
	if r.code != 0 || !strings.Contains(r.stdout, `Created and switched to workspace "ci"!`) {
		t.Fatalf("TF_WORKSPACE=ci workspace new ci: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".terraform", "environment")); err != nil || string(b) != "ci" {
		t.Errorf("selected workspace recorded: %q, %v; want ci", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "ci")); err != nil {
		t.Errorf("workspace ci not created: %v", err)
	}
	r = rig(t, dir, "workspace", "new", "-no-color", "other")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: The workspace is overridden using the TF_WORKSPACE environment variable") ||
		!strings.Contains(r.stderr, "it to match the workspace name you are trying to create") {
		t.Fatalf("TF_WORKSPACE=ci workspace new other: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "workspace", "select", "-no-color", "default")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: The selected workspace is overridden using the TF_WORKSPACE environment variable") {
		t.Fatalf("TF_WORKSPACE=ci workspace select default: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The list says that the environment overrides the selection.
	r = rig(t, dir, "workspace", "list")
	if want := "  default\n* ci\n\n\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\nvariable.\n\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("workspace list under TF_WORKSPACE: exit %d\n%q\nwant %q", r.code, r.stdout, want)
	}
	t.Setenv("TF_WORKSPACE", "")
	r = rig(t, dir, "workspace", "list")
	if want := "  default\n* ci\n\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("workspace list: exit %d\n%q\nwant %q", r.code, r.stdout, want)
	}

	// Selecting the selected workspace says nothing; -or-create says
	// when it created one.
	r = rig(t, dir, "workspace", "select", "ci")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("workspace select of the selected one: exit %d\n%q%q", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "workspace", "select", "-or-create", "-no-color", "fresh")
	if r.code != 0 || !strings.HasPrefix(r.stdout, `Created and switched to workspace "fresh"!`) {
		t.Fatalf("workspace select -or-create of a new one: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "workspace", "select", "-or-create", "ci")
	if want := "\x1b[0m\x1b[32mSwitched to workspace \"ci\".\x1b[0m\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("workspace select -or-create of an existing one: exit %d\n%q, want %q\n%s", r.code, r.stdout, want, r.stderr)
	}
}

// TestInvalidWorkspaceEnv: a TF_WORKSPACE that is no workspace name stops
// every command that would use the workspace, with one message, and
// leaves the others alone.
func TestInvalidWorkspaceEnv(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	t.Setenv("TF_WORKSPACE", "team/dev")
	for _, args := range [][]string{
		{"plan"}, {"validate"}, {"workspace", "show"}, {"workspace", "list"}, {"output"}, {"state", "list"}, {"graph"}, {"providers"},
	} {
		r := rig(t, dir, append(args, "-no-color")...)
		if r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid workspace name set using TF_WORKSPACE") ||
			!strings.Contains(r.stderr, `The workspace name "team/dev" is not allowed.`) {
			t.Errorf("%s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	for _, args := range [][]string{{"version"}, {"fmt", "-check"}, {"plan", "-help"}} {
		if r := rig(t, dir, args...); r.code != 0 {
			t.Errorf("%s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
}

// TestWorkspaceMistakes: the workspace commands' errors read as
// OpenTofu's.
func TestWorkspaceMistakes(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"workspace", "select", "nope"}, "Error: Workspace \"nope\" doesn't exist\n\nYou can create this workspace"},
		{[]string{"workspace", "new", "default"}, "Error: Workspace \"default\" already exists\n\nA workspace having the given name already exists"},
		{[]string{"workspace", "delete", "default"}, "Error: Workspace \"default\" is your active workspace\n"},
		{[]string{"workspace", "new", "a/b"}, "Error: Invalid workspace name\n\nThe workspace name \"a/b\" is not allowed. The name must contain only URL safe\ncharacters, and no path separators."},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if r := rig(t, dir, append(tt.args, "-no-color")...); r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, want 1 with %q\n%s%s", r.code, tt.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestWorkspaceJSON: workspace new, select and delete with -json write
// one message for what they did, worded as OpenTofu's.
func TestWorkspaceJSON(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"workspace", "new", "-json", "w1"}, `"@message":"Created and switched to workspace \"w1\". You're now on a new, empty workspace. Workspaces isolate their state, so if you run \"rig plan\" rig will not see any existing state for this configuration"`},
		{[]string{"workspace", "select", "-json", "default"}, `"@message":"Switched to workspace \"default\""`},
		{[]string{"workspace", "delete", "-json", "w1"}, `"@message":"Deleted workspace \"w1\""`},
	} {
		r := rig(t, dir, tt.args...)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if r.code != 0 || len(lines) != 2 || !strings.Contains(lines[1], tt.want) {
			t.Errorf("rig %s: exit %d, want the version message and one with %s\n%s%s", strings.Join(tt.args, " "), r.code, tt.want, r.stdout, r.stderr)
		}
	}
}
