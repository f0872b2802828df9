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
// until an apply completes without errors.
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
	for _, want := range []string{
		"Warning: Creates cut off by a crash",
		"rig was stopped while 1 create(s) were under way",
		`test_thing.b (provider["registry.terraform.io/rig/test"]) name = "b" size = 1`,
		"import block",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("plan does not say %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(got, "test_thing.c") || strings.Contains(got, "test_thing.d") {
		t.Errorf("plan lists a create that ended or whose intent was never written:\n%s", r.stderr)
	}
	if r := rigOK(t, dir, "apply", "-auto-approve", "-no-color"); !strings.Contains(r.stdout, "test_thing.b") {
		t.Errorf("apply does not list the cut-off create:\n%s", r.stderr)
	}
	if r := rigOK(t, dir, "plan", "-no-color"); strings.Contains(r.stdout, "Creates cut off") {
		t.Errorf("the list outlived a completed apply:\n%s", r.stderr)
	}
}
