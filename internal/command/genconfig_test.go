package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plan -generate-config-out writes a resource block for an import block
// without one, plans the import with it, and apply records the object.
func TestPlanGenerateConfigOut(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "kept" {}
import {
  to = terraform_data.x
  id = "abc"
}
import {
  to = terraform_data.kept
  id = "k"
}
`})
	r := rig(t, dir, "plan", "-no-color", "-generate-config-out=gen.tf")
	for _, want := range []string{"# terraform_data.x will be imported", "# terraform_data.kept will be imported",
		"Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.", "rig has generated configuration and written it to gen.tf."} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Fatalf("plan lacks %q: exit %d\n%s%s", want, r.code, r.stdout, r.stderr)
		}
	}
	// Each import is reported once, as OpenTofu reports it while planning.
	for _, line := range []string{"terraform_data.x: Preparing import... [id=abc]", "terraform_data.x: Refreshing state... [id=abc]",
		"terraform_data.kept: Preparing import... [id=k]", "terraform_data.kept: Refreshing state... [id=k]"} {
		if n := strings.Count(r.stdout, line+"\n"); n != 1 {
			t.Errorf("plan prints %q %d times, want once:\n%s", line, n, r.stdout)
		}
	}
	if want := "  # terraform_data.x will be imported\n  # (config will be generated)\n"; !strings.Contains(r.stdout, want) || strings.Count(r.stdout, "(config will be generated)") != 1 {
		t.Errorf("plan should mark terraform_data.x alone as generated:\n%s", r.stdout)
	}
	got, err := os.ReadFile(filepath.Join(dir, "gen.tf"))
	if err != nil {
		t.Fatal(err)
	}
	want := `# __generated__ by rig
# Please review these resources and move them into your main configuration files.

# __generated__ by rig from "abc"
resource "terraform_data" "x" {
  input            = null
  triggers_replace = null
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("gen.tf (-want +got):\n%s", diff)
	}

	r = rig(t, dir, "plan", "-no-color", "-generate-config-out=gen.tf")
	if r.code != 1 || !strings.Contains(r.stderr, "Target generated file already exists") {
		t.Fatalf("plan into an existing file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A saved plan keeps the generated block: show -json gives it as
	// generated_config, the note about the file comes before the saved plan's.
	if err := os.Remove(filepath.Join(dir, "gen.tf")); err != nil {
		t.Fatal(err)
	}
	r = rig(t, dir, "plan", "-no-color", "-generate-config-out=gen.tf", "-out=p.bin")
	if i, j := strings.Index(r.stdout, "rig has generated configuration"), strings.Index(r.stdout, "Saved the plan to: p.bin"); r.code != 0 || i < 0 || j < i {
		t.Fatalf("plan -out: exit %d, the generated note should precede the saved plan's\n%s%s", r.code, r.stdout, r.stderr)
	}
	var shown struct {
		ResourceChanges []struct {
			Address string
			Change  struct {
				GeneratedConfig *string `json:"generated_config"`
			}
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(mustRig(t, dir, "show", "-json", "p.bin").stdout), &shown); err != nil {
		t.Fatal(err)
	}
	generatedConfig := map[string]string{}
	for _, rc := range shown.ResourceChanges {
		if rc.Change.GeneratedConfig != nil {
			generatedConfig[rc.Address] = *rc.Change.GeneratedConfig
		}
	}
	wantBlock := "resource \"terraform_data\" \"x\" {\n  input            = null\n  triggers_replace = null\n}"
	if diff := cmp.Diff(map[string]string{"terraform_data.x": wantBlock}, generatedConfig); diff != "" {
		t.Errorf("generated_config in show -json (-want +got):\n%s", diff)
	}

	r = rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 2 imported, 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := stateAddresses(t, dir); !slices.Equal(got, []string{"terraform_data.kept", "terraform_data.x"}) {
		t.Fatalf("state after the imports: %v", got)
	}
}

// Configuration is generated only for root module resources.
func TestPlanGenerateConfigOutInModule(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `module "m" {
  source = "./m"
}
import {
  to = module.m.terraform_data.x
  id = "abc"
}
`,
		"m/main.tf": ``,
	})
	r := rig(t, dir, "plan", "-no-color", "-generate-config-out=gen.tf")
	if r.code != 1 || !strings.Contains(r.stderr, "Cannot generate configuration for resource inside sub-module") {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen.tf")); err == nil {
		t.Error("gen.tf was written")
	}
}
