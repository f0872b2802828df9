package command

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// staticInteropConfig is a configuration whose module source (through a
// nested module's variable), backend path and encryption passphrase come
// from root variables.
var staticInteropConfig = map[string]string{
	"main.tf": `
variable "env" {
  type = string
}
variable "pass" {
  type      = string
  sensitive = true
}
locals {
  path = "states/${var.env}.tfstate"
}
` + staticStateSettings + "\n" + staticOuterCall,
	"outer/main.tf": staticOuterModule,
	"b/main.tf":     `resource "terraform_data" "x" { input = "b" }`,
}

// TestStaticEvaluationMatchesOpenTofu runs OpenTofu (RIG_TEST_TOFU, or
// tofu on the PATH; skipped without it) and rig on the same configuration:
// the same modules.json and backend record after init, the same planned
// actions, and each tool plans no changes on the state the other applied.
func TestStaticEvaluationMatchesOpenTofu(t *testing.T) {
	tofu := tofuBinary()
	if tofu == "" {
		t.Skip("OpenTofu is not installed (set RIG_TEST_TOFU to its executable)")
	}
	t.Setenv("TF_VAR_pass", "correct-horse-battery-staple")
	vars := []string{"-var", "env=b", "-input=false", "-no-color"}
	runTofu := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(tofu, append([]string{"-chdir=" + dir}, args...)...)
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=", "CHECKPOINT_DISABLE=1")
		out, err := cmd.CombinedOutput()
		if err != nil && !slices.Contains(args, "-detailed-exitcode") {
			t.Fatalf("tofu %v: %v\n%s", args, err, out)
		}
		if err != nil {
			return "exit " + err.Error() + "\n" + string(out)
		}
		return string(out)
	}
	read := func(dir, name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	backendRecord := func(dir string) string {
		var rec struct {
			Backend json.RawMessage `json:"backend"`
		}
		if err := json.Unmarshal([]byte(read(dir, ".terraform/terraform.tfstate")), &rec); err != nil {
			t.Fatal(err)
		}
		var b map[string]any
		json.Unmarshal(rec.Backend, &b)
		out, _ := json.Marshal(b)
		return string(out)
	}
	actions := func(planJSON string) []string {
		var p struct {
			ResourceChanges []struct {
				Address string `json:"address"`
				Change  struct {
					Actions []string `json:"actions"`
				} `json:"change"`
			} `json:"resource_changes"`
		}
		if err := json.Unmarshal([]byte(planJSON[strings.Index(planJSON, "{"):]), &p); err != nil {
			t.Fatalf("plan JSON: %v\n%s", err, planJSON)
		}
		var out []string
		for _, rc := range p.ResourceChanges {
			out = append(out, rc.Address+" "+strings.Join(rc.Change.Actions, ","))
		}
		return out
	}

	tofuDir, rigDir := workDir(t, staticInteropConfig), workDir(t, staticInteropConfig)
	runTofu(tofuDir, append([]string{"init"}, vars...)...)
	mustRig(t, rigDir, append([]string{"init"}, vars...)...)
	if a, b := read(tofuDir, ".terraform/modules/modules.json"), read(rigDir, ".terraform/modules/modules.json"); a != b {
		t.Errorf("modules.json\ntofu %s\nrig  %s", a, b)
	}
	if a, b := backendRecord(tofuDir), backendRecord(rigDir); a != b {
		t.Errorf("backend record\ntofu %s\nrig  %s", a, b)
	}
	runTofu(tofuDir, append([]string{"plan", "-out=p.plan"}, vars...)...)
	mustRig(t, rigDir, append([]string{"plan", "-out=p.plan"}, vars...)...)
	tofuActions := actions(runTofu(tofuDir, "show", "-json", "-no-color", "p.plan"))
	rigActions := actions(mustRig(t, rigDir, "show", "-json", "p.plan").stdout)
	if want := []string{"module.outer.module.inner.terraform_data.x create"}; !slices.Equal(rigActions, want) {
		t.Errorf("rig plans %v, want %v", rigActions, want)
	}
	if !slices.Equal(tofuActions, rigActions) {
		t.Errorf("planned actions\ntofu %v\nrig  %v", tofuActions, rigActions)
	}
	// Each tool applies, and the other plans no changes on its state.
	runTofu(tofuDir, "apply", "-input=false", "-no-color", "p.plan")
	mustRig(t, rigDir, "apply", "-input=false", "-no-color", "p.plan")
	if r := rig(t, tofuDir, append([]string{"plan", "-detailed-exitcode"}, vars...)...); r.code != 0 {
		t.Errorf("rig plan on OpenTofu's state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if out := runTofu(rigDir, append([]string{"plan", "-detailed-exitcode"}, vars...)...); strings.HasPrefix(out, "exit ") {
		t.Errorf("tofu plan on rig's state:\n%s", out)
	}
}
