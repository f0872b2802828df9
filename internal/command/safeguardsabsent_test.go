package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// safeguardsConfig uses every construct rig's safeguards act on when
// rig.hcl turns them on: prevent_destroy (recorded with the object under
// record_prevent_destroy), a create_before_destroy replacement of a
// counted resource with a postcondition and a dependent (gated under
// health_gate) and creates (recorded under record_create_intents).
const safeguardsConfig = protectProviders + `variable "key" {
  type = string
}
resource "test_thing" "db" {
  name = "db"
  lifecycle {
    prevent_destroy = true
  }
}
resource "test_thing" "web" {
  count = 3
  name  = "web-${count.index}-${var.key}"
  tags  = { db = test_thing.db.id }
  lifecycle {
    create_before_destroy = true
    postcondition {
      condition     = self.size == 1
      error_message = "${self.id} has size ${self.size}."
    }
  }
}
resource "test_thing" "lb" {
  name = "lb"
  tags = { backends = join(",", test_thing.web[*].id) }
}
`

var (
	goldenLineage   = regexp.MustCompile(`"lineage": "[^"]*"`)
	goldenTimestamp = regexp.MustCompile(`"timestamp":"[^"]*"`)
)

// TestSafeguardsAbsentChangeNothing: with every setting of rig.hcl absent,
// the safeguards leave plans and states as they are without them: the
// saved plan's JSON and every state file are the golden ones, which hold
// no record of them (for the same steps, OpenTofu 1.12.6 writes the same
// states, serials included, but for the order of the check results and a
// final blank line), the data directory holds no intents, and deleting a block
// that sets prevent_destroy destroys its object, as in OpenTofu.
func TestSafeguardsAbsentChangeNothing(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": safeguardsConfig})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	state := func(name string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "safeguards/"+name, goldenLineage.ReplaceAllString(string(b), `"lineage": "L"`))
	}

	rigOK(t, dir, "apply", "-auto-approve", "-no-color", "-var", "key=k1")
	state("state-created")
	rigOK(t, dir, "plan", "-no-color", "-var", "key=k2", "-out=replace.tfplan")
	r := rigOK(t, dir, "show", "-json", "replace.tfplan")
	golden(t, "safeguards/plan-replace-json", goldenTimestamp.ReplaceAllString(r.stdout, `"timestamp":"T"`))
	r = rigOK(t, dir, "apply", "-auto-approve", "-no-color", "replace.tfplan")
	if strings.Contains(r.stdout, "health gate") || strings.Contains(r.stdout, "batch") {
		t.Errorf("the apply without rig.hcl gates the replacements:\n%s", r.stdout)
	}
	state("state-replaced")

	writeFile(t, dir, "main.tf", strings.Replace(strings.Replace(safeguardsConfig, `resource "test_thing" "db" {
  name = "db"
  lifecycle {
    prevent_destroy = true
  }
}`, "", 1), "test_thing.db.id", `"none"`, 1))
	r = rigOK(t, dir, "apply", "-auto-approve", "-no-color", "-var", "key=k2")
	if !strings.Contains(r.stdout, "0 added, 3 changed, 1 destroyed") {
		t.Errorf("deleting db's block does not destroy it as OpenTofu does:\n%s", r.stdout)
	}
	state("state-unprotected")
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "rig-intents.jsonl")); !os.IsNotExist(err) {
		t.Errorf("creates' intents recorded without record_create_intents: %v", err)
	}
}
