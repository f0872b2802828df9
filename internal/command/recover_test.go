package command

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cutOffIntents writes the intents file as a killed apply leaves it: each
// create (address, planned content) begun, none ended.
func cutOffIntents(t *testing.T, dir string, creates ...[2]string) {
	t.Helper()
	var b strings.Builder
	for _, c := range creates {
		addr, content := c[0], c[1]
		line, _ := json.Marshal(map[string]any{"begin": map[string]any{
			"address": addr, "provider": `provider["registry.terraform.io/rig/test"]`,
			"values": map[string]string{"content": content},
		}})
		b.Write(append(line, '\n'))
	}
	if err := os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".terraform/rig-intents.jsonl", b.String())
}

const recoverConfig = testFileProvider + `
resource "test_file" "a" {
  content = "aye"
}
resource "test_file" "b" {
  content = "bee"
}
resource "test_file" "c" {
  content = "sea"
}
`

// rig recover finds what creates cut off by a crash made: the one exact
// match is imported, an object matching no planned value (half-made) is
// shown as needing a decision and imported when the user selects it, a
// create that made nothing is forgotten; an extra object at an address an
// apply has filled since is imported as deposed and destroyed by the next
// apply; nothing the state records is a candidate.
func TestRecoverCutOffCreates(t *testing.T) {
	world := pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_file" "a" {
  content = "aye"
}
`, "rig.hcl": "record_create_intents = true\n"})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, dir, "main.tf", recoverConfig)
	// The crashes: b's create made its object, twice (an apply killed,
	// then the one after it); c's made one and died before writing its
	// content; a's create (of a replacement, say) made a second object
	// with a's content.
	writeFile(t, world, "b0b0", "bee")
	writeFile(t, world, "b1b1", "bee")
	writeFile(t, world, "c0c0", "")
	writeFile(t, world, "a0a0", "aye")
	cutOffIntents(t, dir, [2]string{"test_file.a", "aye"}, [2]string{"test_file.b", "bee"}, [2]string{"test_file.c", "sea"}, [2]string{"test_file.b", "bee"})

	if r := rig(t, dir, "recover", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stdout, "Recovery cancelled") {
		t.Errorf("recover without approval nor input: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := mustRig(t, dir, "recover", "-no-color", "-auto-approve")
	checkContains(t, "recover", r.stdout,
		"test_file.b (provider[\"registry.terraform.io/rig/test\"])\n  searched by the planned values (content = \"bee\"), and among every test_file object the state does not record\n  [1] exact match: file b0b0 {\"id\":\"b0b0\"}\n      has the planned content\n  [2] exact match: file b1b1 {\"id\":\"b1b1\"}\n      has the planned content\n  2 creates of test_file.b were cut off: each may have made an object.\n"+
			"  -> import candidate 1 into test_file.b, candidate 2 as a deposed object of test_file.b (an exact match for each create cut off)\n",
		"test_file.c (provider[\"registry.terraform.io/rig/test\"])\n  searched by the planned values (content = \"sea\"), and among every test_file object the state does not record\n  [1] near match: file c0c0 {\"id\":\"c0c0\"}\n      content is \"\", planned \"sea\"\n  No object has the planned values.",
		"-> needs your decision: -select=test_file.c=N imports candidate N, -absent=test_file.c forgets the create",
		"[1] exact match: file a0a0 {\"id\":\"a0a0\"}",
		"-> import candidate 1 as a deposed object of test_file.a (the one exact match)",
		"Recovery: 3 object(s) imported, 0 create(s) forgotten, 1 left.",
	)
	if got := string(stateInstance(t, dir, "test_file", "b")["identity"]); got != `{"id":"b0b0"}` {
		t.Errorf("b imported with identity %s", got)
	}
	r = mustRig(t, dir, "plan", "-no-color")
	checkContains(t, "plan after recover", r.stdout+r.stderr,
		"test_file.a (deposed object", "will be destroyed",
		"test_file.c will be created", // still undecided
		"Creates cut off by a crash",
	)
	if strings.Contains(r.stdout, "test_file.b will") || strings.Contains(r.stderr, "test_file.b (") {
		t.Errorf("b still planned or listed after its import:\n%s%s", r.stdout, r.stderr)
	}

	// The user decides c: the half-made object is c's.
	r = rig(t, dir, "recover", "-no-color", "-auto-approve", "-select=test_file.c=2")
	if r.code != 1 || !strings.Contains(r.stderr, "test_file.c has 1 candidate(s)") {
		t.Errorf("select of a candidate that is not there: exit %d\n%s", r.code, r.stderr)
	}
	r = mustRig(t, dir, "recover", "-no-color", "-auto-approve", "-select=test_file.c=1")
	if !strings.Contains(r.stdout, "-> import candidate 1 into test_file.c (-select)") || !strings.Contains(r.stdout, "1 object(s) imported, 0 create(s) forgotten, 0 left.") {
		t.Errorf("recover -select:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "rig-intents.jsonl")); !os.IsNotExist(err) {
		t.Errorf("the intents outlived their recovery: %v", err)
	}
	r = mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "0 added, 1 changed, 2 destroyed") {
		t.Errorf("apply after recovery (c's content written, the extra objects of a and b destroyed):\n%s", r.stdout)
	}
	entries, _ := os.ReadDir(world)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 3 || !slices.Contains(names, "b0b0") || !slices.Contains(names, "c0c0") || slices.Contains(names, "a0a0") || slices.Contains(names, "b1b1") {
		t.Errorf("world after recovery: %v (want a's object, b0b0 and c0c0)", names)
	}
	if b, _ := os.ReadFile(filepath.Join(world, "c0c0")); string(b) != "sea" {
		t.Errorf("c's object holds %q", b)
	}
	if r := mustRig(t, dir, "recover", "-no-color"); !strings.Contains(r.stdout, "No creates cut off by a crash") {
		t.Errorf("recover with nothing to do:\n%s", r.stdout)
	}
}

// A create that made nothing is forgotten; -json reports each create and
// the outcome as messages.
func TestRecoverJSON(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": recoverConfig, "rig.hcl": "record_create_intents = true\n"})
	cutOffIntents(t, dir, [2]string{"test_file.c", "sea"})
	if r := rig(t, dir, "recover", "-json"); r.code != 1 || !strings.Contains(r.stdout, "changes nothing without -auto-approve") {
		t.Errorf("recover -json without -auto-approve: exit %d\n%s", r.code, r.stdout)
	}
	r := mustRig(t, dir, "recover", "-json", "-auto-approve")
	var create, summary map[string]any
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		switch msg["type"] {
		case "cut_off_create":
			create = msg["create"].(map[string]any)
		case "recover_summary":
			summary = msg["summary"].(map[string]any)
		}
	}
	if create["address"] != "test_file.c" || create["status"] != "absent" || len(create["candidates"].([]any)) != 0 ||
		!strings.Contains(create["action"].(string), "forget the create") {
		t.Errorf("cut_off_create message: %v", create)
	}
	if forgotten, _ := summary["forgotten"].([]any); len(forgotten) != 1 || summary["left"] != float64(0) {
		t.Errorf("recover_summary message: %v", summary)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "rig-intents.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a forgotten create is still listed: %v", err)
	}
}

// Without -auto-approve, rig recover asks what to do about each create
// that needs a decision, then for approval.
func TestRecoverAsks(t *testing.T) {
	world := pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": recoverConfig, "rig.hcl": "record_create_intents = true\n"})
	writeFile(t, world, "c0c0", "")
	cutOffIntents(t, dir, [2]string{"test_file.c", "sea"})
	r := rigInput(t, dir, "1\nyes\n", "recover", "-no-color")
	if r.code != 0 {
		t.Fatalf("recover: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "recover", r.stdout,
		"What should rig do about test_file.c?",
		"Do you want to perform these actions?",
		"rig will import 1 object(s) and forget 0 create(s) cut off by a crash.",
		"Recovery: 1 object(s) imported, 0 create(s) forgotten, 0 left.",
	)
	if got := string(stateInstance(t, dir, "test_file", "c")["identity"]); got != `{"id":"c0c0"}` {
		t.Errorf("c imported with identity %s", got)
	}
}

// A create whose type the provider cannot list is shown for the user to
// look for by hand, and stays listed until -absent forgets it.
func TestRecoverUnsearchable(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_thing" "x" {
  name = "x"
}
`})
	if err := os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".terraform/rig-intents.jsonl", `{"begin":{"address":"test_thing.x","provider":"provider[\"registry.terraform.io/rig/test\"]","values":{"name":"x"}}}`+"\n")
	r := mustRig(t, dir, "recover", "-no-color", "-auto-approve")
	checkContains(t, "recover", r.stdout,
		"not searched: the provider rig/test cannot list test_thing objects. Look for the object with its planned values where its provider keeps it:\n    name = \"x\"\n",
		`-> needs your decision: once you have looked, "rig import test_thing.x ID" or -absent=test_thing.x`,
		"0 object(s) imported, 0 create(s) forgotten, 1 left.",
	)
	if r := rig(t, dir, "recover", "-no-color", "-auto-approve", "-absent=test_thing.y"); r.code != 1 || !strings.Contains(r.stderr, "test_thing.y is not among the creates cut off by a crash") {
		t.Errorf("-absent of an address not listed: exit %d\n%s", r.code, r.stderr)
	}
	r = mustRig(t, dir, "recover", "-no-color", "-auto-approve", "-absent=test_thing.x")
	if !strings.Contains(r.stdout, "0 object(s) imported, 1 create(s) forgotten, 0 left.") {
		t.Errorf("recover -absent:\n%s", r.stdout)
	}
	if r := mustRig(t, dir, "plan", "-no-color"); strings.Contains(r.stderr, "Creates cut off") {
		t.Errorf("a forgotten create is still listed:\n%s", r.stderr)
	}
}
