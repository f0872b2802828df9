package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/version"
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

// init -json says OpenTofu's messages in OpenTofu's order: the backend
// configured (without the full stop), then each module installed.
func TestInitBackendBeforeModulesJSON(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":   "terraform {\n  backend \"local\" {\n    path = \"x.tfstate\"\n  }\n}\n\nmodule \"m\" {\n  source = \"./m\"\n}\n",
		"m/main.tf": "",
	})
	r := rig(t, dir, "init", "-json")
	if r.code != 0 {
		t.Fatalf("init -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Message string `json:"@message"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got = append(got, msg.Message)
	}
	want := []string{"rig " + version.Rig, "Initializing the backend...",
		`Successfully configured the backend "local"! rig will automatically use this backend unless the backend configuration changes`,
		"Initializing modules...", "installing m in m", "Initializing provider plugins...", "rig has been successfully initialized!"}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("init -json messages:\n%s\nwant them to begin\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
