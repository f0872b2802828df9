package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCutOffCreatesListed: with record_create_intents, an apply records
// each create's intent before the call and its end after; creates left
// begun by a crash (written here as a killed apply leaves them, the last
// line cut short) are listed, with their planned values, by every run
// until rig recover resolves them: an apply that completes, creating the
// same instance again, keeps them, since what they made is in no state.
func TestCutOffCreatesListed(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": protectProviders + `resource "test_thing" "a" {
  name = "a"
}
`,
		"rig.hcl": "record_create_intents = true\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	intents := filepath.Join(dir, ".terraform", "rig-intents.jsonl")
	if _, err := os.Stat(intents); !os.IsNotExist(err) {
		t.Fatalf("a completed apply left its intents: %v", err)
	}

	writeFile(t, dir, ".terraform/rig-intents.jsonl", `{"begin":{"address":"test_thing.b","provider":"provider[\"registry.terraform.io/rig/test\"]","values":{"name":"b","size":1}}}
{"begin":{"address":"test_thing.c","provider":"provider[\"registry.terraform.io/rig/test\"]","values":{"name":"c"}}}
{"end":"test_thing.c"}
{"begin":{"address":"test_thing.d","provider":"provider[\"registry.terraform.io/r`)
	r := rigOK(t, dir, "plan", "-no-color")
	got := oneLine(r.stdout)
	checkContains(t, "plan", got,
		"Warning: Creates cut off by a crash",
		"rig was stopped while 1 create(s) were under way",
		`test_thing.b (provider["registry.terraform.io/rig/test"]) name = "b" size = 1`,
		"import block",
	)
	if strings.Contains(got, "test_thing.c") || strings.Contains(got, "test_thing.d") {
		t.Errorf("plan lists a create that ended or whose intent was never written:\n%s", r.stderr)
	}
	writeFile(t, dir, "main.tf", protectProviders+`resource "test_thing" "a" {
  name = "a"
}
resource "test_thing" "b" {
  name = "b"
  size = 1
}
`)
	r = rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	if got := oneLine(r.stdout); !strings.Contains(got, "Warning: Creates cut off by a crash") || !strings.Contains(got, `test_thing.b (provider["registry.terraform.io/rig/test"])`) {
		t.Errorf("apply does not list the cut-off create:\n%s", r.stdout)
	}
	// The apply created test_thing.b anew: what the cut-off create made
	// is still unrecorded, and listed.
	r = rigOK(t, dir, "plan", "-no-color")
	if got := oneLine(r.stdout); !strings.Contains(got, "rig was stopped while 1 create(s) were under way") || !strings.Contains(got, `test_thing.b (provider["registry.terraform.io/rig/test"]) name = "b" size = 1`) {
		t.Errorf("a completed apply dropped the cut-off create:\n%s", r.stdout)
	}
	rigOK(t, dir, "recover", "-no-color", "-auto-approve", "-absent=test_thing.b")
	if r := rigOK(t, dir, "plan", "-no-color"); strings.Contains(r.stdout+r.stderr, "Creates cut off") {
		t.Errorf("the list outlived its recovery:\n%s%s", r.stdout, r.stderr)
	}
	if _, err := os.Stat(intents); !os.IsNotExist(err) {
		t.Errorf("the intents outlived their recovery: %v", err)
	}
}
