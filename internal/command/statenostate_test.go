package command

import (
	"strings"
	"testing"
)

// TestStateCommandsWithoutState checks what each state command says where
// no state is stored, as OpenTofu 1.12 says it: the state commands need a
// state file; taint and untaint name the missing instance.
func TestStateCommandsWithoutState(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"state", "list"}, "No state file was found"},
		{[]string{"state", "show", "terraform_data.a"}, "No state file was found"},
		{[]string{"state", "rm", "terraform_data.a"}, "No state file was found"},
		{[]string{"state", "mv", "terraform_data.a", "terraform_data.b"}, "No state file was found"},
		{[]string{"state", "mv", "-state-out=other.tfstate", "terraform_data.a", "terraform_data.b"}, "No state file was found"},
		{[]string{"state", "replace-provider", "-auto-approve", "hashicorp/a", "hashicorp/b"}, "No state file was found"},
		{[]string{"taint", "terraform_data.a"}, "No such resource instance"},
		{[]string{"untaint", "terraform_data.a"}, "No such resource instance"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
			r := rig(t, dir, append(tt.args, "-no-color")...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("exit %d, want 1 with %q\n%s%s", r.code, tt.want, r.stdout, r.stderr)
			}
		})
	}
}
