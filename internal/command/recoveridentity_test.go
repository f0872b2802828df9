package command

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cutOffNamedIntents writes the intents file as a killed apply leaves it
// when the provider planned each create's identity (a test_file whose
// configuration names it): address, planned id (the identity) and content.
func cutOffNamedIntents(t *testing.T, dir string, creates ...[3]string) {
	t.Helper()
	var b strings.Builder
	for _, c := range creates {
		addr, id, content := c[0], c[1], c[2]
		line, _ := json.Marshal(map[string]any{"begin": map[string]any{
			"address": addr, "provider": `provider["registry.terraform.io/rig/test"]`,
			"values":   map[string]string{"id": id, "content": content},
			"identity": map[string]string{"id": id},
		}})
		b.Write(append(line, '\n'))
	}
	if err := os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".terraform/rig-intents.jsonl", b.String())
}

const recoverNamedConfig = testFileProvider + `
resource "test_file" "a" {
  id      = "alpha"
  content = "aye"
}
resource "test_file" "b" {
  id      = "beta"
  content = "bee"
}
resource "test_file" "c" {
  id      = "gamma"
  content = "sea"
}
`

// rig recover looks first for the object with the identity the provider
// planned for a cut-off create: the object with it and the planned values
// is imported; the object with it and other values is the create's object
// half-made, shown for the user to decide, and any other object is no
// candidate then; an object with the planned values but another identity
// is not the create's, so never imported without the user's decision.
func TestRecoverByPlannedIdentity(t *testing.T) {
	world := pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": recoverNamedConfig, "rig.hcl": "record_create_intents = true\n"})
	writeFile(t, world, "alpha", "aye")
	writeFile(t, world, "beta", "")     // made, cut off before its content was written
	writeFile(t, world, "other", "sea") // gamma's content, another identity
	cutOffNamedIntents(t, dir, [3]string{"test_file.a", "alpha", "aye"}, [3]string{"test_file.b", "beta", "bee"}, [3]string{"test_file.c", "gamma", "sea"})

	r := mustRig(t, dir, "plan", "-no-color")
	if want := "  test_file.b (provider[\"registry.terraform.io/rig/test\"])\n    identity = {\"id\":\"beta\"}\n    content = \"bee\"\n    id = \"beta\"\n"; !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("the plan does not list the cut-off create with its planned identity %q:\n%s%s", want, r.stdout, r.stderr)
	}

	r = mustRig(t, dir, "recover", "-no-color", "-auto-approve")
	for _, want := range []string{
		"test_file.a (provider[\"registry.terraform.io/rig/test\"])\n" +
			"  searched by the planned identity (id = \"alpha\"), by the planned values (content = \"aye\", id = \"alpha\"), and among every test_file object the state does not record\n" +
			"  [1] exact match: file alpha {\"id\":\"alpha\"}\n      has the planned identity\n      has the planned content, id\n" +
			"  -> import candidate 1 into test_file.a (the one exact match)\n",
		"test_file.b (provider[\"registry.terraform.io/rig/test\"])\n" +
			"  searched by the planned identity (id = \"beta\"), by the planned values (content = \"bee\", id = \"beta\"), and among every test_file object the state does not record\n" +
			"  [1] identity match: file beta {\"id\":\"beta\"}\n      has the planned identity\n      has the planned id\n      content is \"\", planned \"bee\"\n" +
			"  The object with the planned identity does not have the planned values: it may be half-made (the provider made it, then was cut off before finishing it) or changed since: decide.\n" +
			"  -> needs your decision: -select=test_file.b=N imports candidate N, -absent=test_file.b forgets the create\n",
		"test_file.c (provider[\"registry.terraform.io/rig/test\"])\n" +
			"  searched by the planned identity (id = \"gamma\"), by the planned values (content = \"sea\", id = \"gamma\"), and among every test_file object the state does not record\n" +
			"  [1] near match: file other {\"id\":\"other\"}\n      has the planned content\n      id is \"other\", planned \"gamma\"\n",
		"Recovery: 1 object(s) imported, 0 create(s) forgotten, 2 left.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("recover does not say %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "[2]") {
		t.Errorf("an object with b's planned identity is a candidate of another create, or b has another:\n%s", r.stdout)
	}
	if got := string(stateInstance(t, dir, "test_file", "a")["identity"]); got != `{"id":"alpha"}` {
		t.Errorf("a imported with identity %s", got)
	}

	r = mustRig(t, dir, "recover", "-json", "-auto-approve", "-select=test_file.b=1", "-absent=test_file.c")
	statuses := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var msg struct {
			Type   string `json:"type"`
			Create struct {
				Address          string   `json:"address"`
				Status           string   `json:"status"`
				PlannedIdentity  []string `json:"planned_identity"`
				SearchedIdentity bool     `json:"searched_by_planned_identity"`
				Candidates       []struct {
					IdentityMatch bool `json:"identity_match"`
					Exact         bool `json:"exact"`
				} `json:"candidates"`
			} `json:"create"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		if msg.Type != "cut_off_create" {
			continue
		}
		c := msg.Create
		statuses[c.Address] = c.Status
		if !c.SearchedIdentity || len(c.PlannedIdentity) != 1 || !strings.HasPrefix(c.PlannedIdentity[0], "id = ") {
			t.Errorf("%s: not searched by its planned identity: %s", c.Address, sc.Text())
		}
		if c.Address == "test_file.b" && (len(c.Candidates) != 1 || !c.Candidates[0].IdentityMatch || c.Candidates[0].Exact) {
			t.Errorf("b's candidate is not an inexact identity match: %s", sc.Text())
		}
	}
	if statuses["test_file.b"] != "half_made" || statuses["test_file.c"] != "near" || len(statuses) != 2 {
		t.Errorf("statuses %v, want b half_made and c near", statuses)
	}
	if got := string(stateInstance(t, dir, "test_file", "b")["identity"]); got != `{"id":"beta"}` {
		t.Errorf("b imported with identity %s", got)
	}
	r = mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "1 added, 1 changed, 0 destroyed") {
		t.Errorf("apply after recovery (b's content written, c created):\n%s", r.stdout)
	}
	for name, want := range map[string]string{"alpha": "aye", "beta": "bee", "gamma": "sea", "other": "sea"} {
		if b, err := os.ReadFile(filepath.Join(world, name)); err != nil || string(b) != want {
			t.Errorf("world's %s holds %q (%v), want %q", name, b, err, want)
		}
	}
}
