package command

import (
	"strings"
	"testing"
)

// TestStatePullRefusesWhatIsNotAState checks that state pull prints a
// state as stored, nothing when there is none, and refuses, as OpenTofu
// and Terraform do, a state file that is not one instead of printing it.
func TestStatePullRefusesWhatIsNotAState(t *testing.T) {
	const stored = `{"version": 4, "terraform_version": "1.10.6", "serial": 3, "lineage": "l-1", "outputs": {}, "resources": [], "check_results": null}
`
	tests := []struct {
		name     string
		state    string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{name: "a state", state: stored, wantOut: stored},
		{name: "no state", wantOut: ""},
		{name: "not JSON", state: "{not json", wantCode: 1, wantErr: "Failed to load state"},
		{name: "JSON but no state", state: `{"hello": "world"}`, wantCode: 1, wantErr: "Failed to load state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"main.tf": ""}
			if tt.state != "" {
				files["terraform.tfstate"] = tt.state
			}
			r := rig(t, workDir(t, files), "state", "pull")
			if r.code != tt.wantCode || !strings.Contains(r.stderr, tt.wantErr) {
				t.Fatalf("exit %d, want %d with %q\n%s", r.code, tt.wantCode, tt.wantErr, r.stderr)
			}
			if tt.wantCode == 0 && r.stdout != tt.wantOut {
				t.Errorf("printed %q, want %q", r.stdout, tt.wantOut)
			}
			if tt.wantCode != 0 && r.stdout != "" {
				t.Errorf("printed %q, want nothing", r.stdout)
			}
		})
	}
}
