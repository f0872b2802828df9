package command

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/txtartest"
)

var planTimestamp = regexp.MustCompile(`"timestamp": "[^"]*"`)

// TestShowJSONPlanModules checks `show -json` of a saved plan of a
// configuration of modules, against a state made by applying it first:
// the configuration with its module calls, planned values nested by module
// instance, resource changes in modules (updates, creates and deletes of
// whole module instances) and the prior state, the configuration taken
// from the plan file.
func TestShowJSONPlanModules(t *testing.T) {
	files := txtartest.ReadFiles(t, filepath.Join("testdata", "modules", "config.txtar"))
	dir := workDir(t, files)
	if r := rig(t, dir, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	planPath := filepath.Join(dir, "next.plan")
	// api loses a replica, web gains one, db is new.
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-out="+planPath, "-var", "services={api=1,web=2,db=1}"); r.code != 0 {
		t.Fatalf("plan -out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The configuration shown is the one the plan recorded, whatever the
	// working directory holds now.
	writeFile(t, dir, "main.tf", `resource "terraform_data" "changed" {}`+"\n")
	writeFile(t, dir, filepath.Join("modules", "network", "main.tf"), "")
	r := rig(t, dir, "show", "-json", planPath)
	if r.code != 0 {
		t.Fatalf("show -json: exit %d\n%s", r.code, r.stderr)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(r.stdout), "", "  "); err != nil {
		t.Fatalf("show -json output is not JSON: %v\n%s", err, r.stdout)
	}
	golden(t, "modules/show-json-plan", planTimestamp.ReplaceAllString(out.String(), `"timestamp": "T"`))
}

// TestRelevantAttributesLikeTerraform plans the module configuration of
// TestShowJSONPlanModules with Terraform and with rig, and compares the
// plans' relevant_attributes: the resource attributes the planned changes
// (resources, root and module outputs) refer to, through locals,
// variables, module outputs and other resources' arguments.
func TestRelevantAttributesLikeTerraform(t *testing.T) {
	files := txtartest.ReadFiles(t, filepath.Join("testdata", "modules", "config.txtar"))
	relevant := func(show string) string {
		t.Helper()
		var doc struct {
			Relevant []struct {
				Resource  string          `json:"resource"`
				Attribute json.RawMessage `json:"attribute"`
			} `json:"relevant_attributes"`
		}
		if err := json.Unmarshal([]byte(show), &doc); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, r := range doc.Relevant {
			lines = append(lines, r.Resource+" "+compactJSON(r.Attribute))
		}
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	planArgs := []string{"plan", "-input=false", "-no-color", "-out=next.plan", "-var", "services={api=1,web=2,db=1}"}

	tfDir := workDir(t, files)
	tf := terraformIn(t, tfDir)
	tf("init", "-no-color")
	tf("apply", "-auto-approve", "-input=false", "-no-color")
	tf(planArgs...)
	want := relevant(tf("show", "-json", "next.plan").stdout)
	if want == "" {
		t.Fatal("Terraform's plan has no relevant_attributes")
	}

	dir := workDir(t, files)
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color")
	mustRig(t, dir, planArgs...)
	if diff := cmp.Diff(want, relevant(mustRig(t, dir, "show", "-json", "next.plan").stdout)); diff != "" {
		t.Errorf("relevant_attributes (-terraform +rig):\n%s", diff)
	}
}
