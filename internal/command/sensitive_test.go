package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A value the configuration marks sensitive (sensitive(), here through a
// module output) is recorded in sensitive_attributes, never printed by
// plan, apply or destroy, and a second plan has nothing to do.
func TestSensitiveValuesFromConfiguration(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `module "secrets" {
  source = "./secrets"
}
resource "terraform_data" "a" {
  input = module.secrets.token
}
`,
		"secrets/main.tf": `output "token" {
  value     = sensitive("hunter2")
  sensitive = true
}
`,
	})
	for _, args := range [][]string{{"apply", "-auto-approve"}, {"plan", "-detailed-exitcode"}, {"destroy", "-auto-approve"}} {
		r := rig(t, dir, append(args, "-no-color")...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "hunter2") {
			t.Errorf("%s printed the secret:\n%s", args[0], r.stdout)
		}
		if args[0] == "apply" {
			if !strings.Contains(r.stdout, "input  = (sensitive value)") {
				t.Errorf("apply does not show the input as sensitive:\n%s", r.stdout)
			}
			_, raw := readStateFile(t, dir)
			if !strings.Contains(string(raw), `"value": "input"`) {
				t.Errorf("sensitive_attributes lacks input:\n%s", raw)
			}
		}
	}
}

// A sensitive root variable stays hidden through a saved plan: plan -out,
// show PLAN and apply PLAN print no secret, and a root output that refers
// to it must say sensitive = true.
func TestSensitiveVariableThroughSavedPlan(t *testing.T) {
	cfg := `variable "pw" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  input = var.pw
}
output "pw" {
  value = var.pw
}
`
	dir := workDir(t, map[string]string{"main.tf": cfg})
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Output refers to sensitive values") || strings.Contains(r.stdout+r.stderr, "hunter2") {
		t.Fatalf("plan with an output not marked sensitive: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, dir, "main.tf", strings.Replace(cfg, "value = var.pw", "value     = var.pw\n  sensitive = true", 1))
	for _, args := range [][]string{{"plan", "-out=next.plan"}, {"show", "next.plan"}, {"apply", "next.plan"}, {"plan", "-detailed-exitcode"}} {
		r := rig(t, dir, append([]string{args[0], "-no-color"}, args[1:]...)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "hunter2") {
			t.Errorf("%s printed the secret:\n%s", strings.Join(args, " "), r.stdout)
		}
	}
}

// Marking a value sensitive that was not (or no longer) is an update that
// only records it, as OpenTofu and Terraform plan it: the apply calls no
// provider, and then rig — and Terraform and OpenTofu, when installed — have
// nothing to do on the state rig wrote. What terraform_data echoes into
// output is hidden by rig's views without being recorded, as the other
// tools record it.
func TestSensitivityChangeIsAnUpdate(t *testing.T) {
	cfg := `variable "pw" {
  default = "hunter2"
}
resource "terraform_data" "a" {
  input = var.pw
}
`
	dir := workDir(t, map[string]string{"main.tf": cfg})
	runOK(t, dir, "apply", "-auto-approve")
	writeFile(t, dir, "main.tf", strings.Replace(cfg, `default = "hunter2"`, "default   = \"hunter2\"\n  sensitive = true", 1))
	r := rig(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if r.code != 2 || !strings.Contains(r.stdout, "terraform_data.a will be updated in-place") ||
		!strings.Contains(r.stdout, "# Warning: this attribute value will be marked as sensitive and will not\n      # display in UI output after applying this change. The value is unchanged.\n      ~ input  = (sensitive value)") {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, dir, "apply", "-auto-approve")
	_, raw := readStateFile(t, dir)
	if !strings.Contains(string(raw), `"sensitive_attributes": [
            [
              {
                "type": "get_attr",
                "value": "input"
              }
            ]
          ]`) {
		t.Errorf("the state does not record input alone as sensitive:\n%s", raw)
	}
	if r := rig(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan after the apply: exit %d\n%s", r.code, r.stdout)
	}
	if r := runOK(t, dir, "show"); strings.Contains(r.stdout, "hunter2") || !strings.Contains(r.stdout, "output = (sensitive value)") {
		t.Errorf("show:\n%s", r.stdout)
	}
	tools := []string{tofuBinary()}
	if tf, err := exec.LookPath("terraform"); err == nil {
		tools = append(tools, tf)
	}
	for _, bin := range tools {
		if bin == "" {
			continue
		}
		cmd := exec.Command(bin, "-chdir="+dir, "plan", "-no-color", "-detailed-exitcode", "-input=false")
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=", "CHECKPOINT_DISABLE=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s plan on rig's state: %v\n%s", filepath.Base(bin), err, out)
		}
	}
}
