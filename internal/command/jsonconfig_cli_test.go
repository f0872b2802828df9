package command

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/tools/txtar"
)

var planTimestamp = regexp.MustCompile(`"timestamp": "[^"]*"`)

// TestShowJSONPlanModules checks `show -json` of a saved plan of a
// configuration of modules, against a state made by applying it first:
// the configuration with its module calls, planned values nested by module
// instance, resource changes in modules (updates, creates and deletes of
// whole module instances) and the prior state, the configuration taken
// from the plan file.
func TestShowJSONPlanModules(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "modules", "config.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	dir := workdir(t, files)
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
