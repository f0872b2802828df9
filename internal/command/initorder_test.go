package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// init initializes the backend before it installs the modules, as OpenTofu
// does, and a backend it cannot initialize is reported once the modules
// are installed.
func TestInitBackendBeforeModules(t *testing.T) {
	files := map[string]string{
		"main.tf":   "terraform {\n  backend \"local\" {\n    path = \"x.tfstate\"\n  }\n}\n\nmodule \"m\" {\n  source = \"./m\"\n}\n",
		"m/main.tf": "output \"o\" {\n  value = 1\n}\n",
	}
	dir := workDir(t, files)
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden(t, "initorder/backend-modules", r.stdout)
	r = rig(t, dir, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init again: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden(t, "initorder/again", r.stdout)

	files["main.tf"] = strings.Replace(files["main.tf"], "path = \"x.tfstate\"", "path = \"x.tfstate\"\n    bogus = 1", 1)
	bad := workDir(t, files)
	r = rig(t, bad, "init", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "bogus") {
		t.Fatalf("init with a bad backend: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if want := "\nInitializing the backend...\nInitializing modules...\n- m in m\n"; r.stdout != want {
		t.Errorf("init with a bad backend says\n%s\nwant\n%s", r.stdout, want)
	}
	if _, err := os.Stat(filepath.Join(bad, ".terraform", "modules", "modules.json")); err != nil {
		t.Errorf("the modules are not installed before the backend's error: %v", err)
	}
}
