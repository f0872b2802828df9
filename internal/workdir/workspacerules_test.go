package workdir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWorkspaceRules: the selected workspace and the default one are never
// deleted, and TF_WORKSPACE fixes the selection.
func TestWorkspaceRules(t *testing.T) {
	t.Setenv("TF_WORKSPACE", "")
	if ds := CheckWorkspaceSelectable(); ds.HasErrors() {
		t.Errorf("without TF_WORKSPACE: %v", ds)
	}
	if ds := CheckWorkspaceCreatable("dev"); ds.HasErrors() {
		t.Errorf("without TF_WORKSPACE, creating: %v", ds)
	}
	t.Setenv("TF_WORKSPACE", "dev")
	if ds := CheckWorkspaceSelectable(); !ds.HasErrors() || ds[0].Summary != "The selected workspace is overridden using the TF_WORKSPACE environment variable" {
		t.Errorf("with TF_WORKSPACE: got %v, want the override refused", ds)
	}
	// The workspace TF_WORKSPACE names may be created, no other.
	if ds := CheckWorkspaceCreatable("dev"); ds.HasErrors() {
		t.Errorf("creating the workspace TF_WORKSPACE names: %v", ds)
	}
	if ds := CheckWorkspaceCreatable("staging"); !ds.HasErrors() || ds[0].Summary != "The workspace is overridden using the TF_WORKSPACE environment variable" {
		t.Errorf("creating another workspace than TF_WORKSPACE's: got %v, want it refused", ds)
	}
	d := New(t.TempDir(), Options{})
	for name, want := range map[string]string{
		"dev":     `Workspace "dev" is your active workspace`,
		"default": "Can't delete the default workspace",
		"staging": "",
	} {
		ds := d.CheckWorkspaceRemovable(name)
		switch {
		case want == "" && len(ds) > 0:
			t.Errorf("%s: got %v, want it removable", name, ds)
		case want != "" && (!ds.HasErrors() || ds[0].Summary != want):
			t.Errorf("%s: got %v, want %q", name, ds, want)
		}
	}
}

// TestWorkspaceEnv: a TF_WORKSPACE that is no workspace name is reported
// before a command uses it.
func TestWorkspaceEnv(t *testing.T) {
	for env, valid := range map[string]bool{"": true, "dev": true, "team-a_2": true, "bad/name": false, "a b": false} {
		t.Setenv("TF_WORKSPACE", env)
		ds := CheckWorkspaceEnv()
		if ds.HasErrors() == valid {
			t.Errorf("TF_WORKSPACE=%q: got %v, want valid=%v", env, ds, valid)
		}
		if !valid && ds[0].Summary != "Invalid workspace name set using TF_WORKSPACE" {
			t.Errorf("TF_WORKSPACE=%q: summary %q", env, ds[0].Summary)
		}
	}
}

func TestReadStateFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tfstate")
	if err := os.WriteFile(good, []byte(`{"version": 4, "terraform_version": "1.10.0", "serial": 7, "lineage": "abc", "outputs": {}, "resources": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := ReadStateFile(good)
	if err != nil || s.Serial != 7 || s.Lineage != "abc" {
		t.Errorf("got %+v, %v; want serial 7 of lineage abc", s, err)
	}
	if _, err := ReadStateFile(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("a missing file read without error")
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("not a state"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStateFile(bad); err == nil {
		t.Errorf("a file that is not a state read without error")
	}
}
