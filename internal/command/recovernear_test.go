package command

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// When no object has the planned values, every object of the type the
// state does not record is a near candidate: the text shows the best
// ranked few and how many more there are, -json all of them.
func TestRecoverManyNearCandidates(t *testing.T) {
	world := pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": recoverConfig, "rig.hcl": "record_create_intents = true\n"})
	for i := range 7 {
		writeFile(t, world, fmt.Sprintf("n%d", i), fmt.Sprintf("other %d", i))
	}
	cutOffIntents(t, dir, [2]string{"test_file.c", "sea"})
	r := mustRig(t, dir, "recover", "-no-color", "-auto-approve")
	checkContains(t, "recover", r.stdout,
		"  [5] near match: file n4 {\"id\":\"n4\"}\n      content is \"other 4\", planned \"sea\"\n"+
			"  ... and 2 more near candidate(s), none with more of the planned values than those above (-json lists every one)\n",
		"-> needs your decision: -select=test_file.c=N imports candidate N",
	)
	if strings.Contains(r.stdout, "[6]") {
		t.Errorf("recover shows more than five near candidates:\n%s", r.stdout)
	}

	r = mustRig(t, dir, "recover", "-json", "-auto-approve")
	var cands []any
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		if msg["type"] == "cut_off_create" {
			cands, _ = msg["create"].(map[string]any)["candidates"].([]any)
		}
	}
	if len(cands) != 7 {
		t.Errorf("-json lists %d candidates, want all 7:\n%s", len(cands), r.stdout)
	}
	// The one not shown in text can still be chosen.
	r = mustRig(t, dir, "recover", "-no-color", "-auto-approve", "-select=test_file.c=7")
	if !strings.Contains(r.stdout, "-> import candidate 7 into test_file.c (-select)") {
		t.Errorf("recover -select of a candidate past those shown:\n%s", r.stdout)
	}
	if got := string(stateInstance(t, dir, "test_file", "c")["identity"]); got != `{"id":"n6"}` {
		t.Errorf("c imported with identity %s, want n6's", got)
	}
}
