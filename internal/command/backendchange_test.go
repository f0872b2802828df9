package command

import (
	"strings"
	"testing"
)

// A backend recorded by an earlier init that -backend-config changes is
// refused without -migrate-state or -reconfigure, even when it holds no
// state, with OpenTofu's words; -migrate-state says the configuration
// changed before it configures the new one.
func TestInitBackendChangedNeedsAnOption(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "terraform {\n  backend \"local\" {}\n}\n"})
	rigOK(t, dir, "init", "-no-color", "-backend-config=path=a.tfstate")
	r := rig(t, dir, "init", "-no-color", "-backend-config=path=b.tfstate")
	want := "\nError: Backend configuration changed\n\nA change in the backend configuration has been detected, which may require\nmigrating existing state.\n\n" +
		"If you wish to attempt automatic migration of the state, use \"rig init\n-migrate-state\".\nIf you wish to store the current configuration with no changes to the state,\nuse \"rig init -reconfigure\".\n\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("init with another path: exit %d\n%q\nwant\n%q", r.code, r.stderr, want)
	}
	r = rigOK(t, dir, "init", "-no-color", "-backend-config=path=b.tfstate", "-migrate-state")
	if want := "Initializing the backend...\nBackend configuration changed!\n\nrig has detected that the configuration specified for the backend\nhas changed. rig will now check for existing state in the backends.\n\nSuccessfully configured the backend \"local\"!"; !strings.Contains(r.stdout, want) {
		t.Errorf("init -migrate-state:\n%s\nwant\n%s", r.stdout, want)
	}
	rigOK(t, dir, "init", "-no-color", "-backend-config=path=c.tfstate", "-reconfigure")
}
