//go:build linux

package killtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
)

// cutOffCreate is a cut_off_create message of rig recover -json.
type cutOffCreate struct {
	Address    string `json:"address"`
	Status     string `json:"status"`
	Action     string `json:"action"`
	Imports    []int  `json:"imports"`
	Forgets    bool   `json:"forgets"`
	Candidates []struct {
		Number   int `json:"number"`
		Identity struct {
			ID string `json:"id"`
		} `json:"identity"`
		Exact       bool `json:"exact"`
		Differences []struct {
			Name, Found string
		} `json:"differences"`
	} `json:"candidates"`
}

// recoverReport reads the cut_off_create messages of rig recover -json.
func recoverReport(stdout string) []cutOffCreate {
	var out []cutOffCreate
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var msg struct {
			Type   string       `json:"type"`
			Create cutOffCreate `json:"create"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.Type == "cut_off_create" {
			out = append(out, msg.Create)
		}
	}
	return out
}

// recoverCutOff runs rig recover as a user would: it shows what the
// provider lists for each create the kill cut off; rig imports the exact
// matches and forgets the creates that made nothing, and the user decides
// the rest: an object left empty (made, then cut off before it was
// written: every content planned here is non-empty) is the half-made
// object of one of the creates that found nothing else; a create left
// without one made nothing. It returns the ids of the objects imported
// and what rig recover showed and was told, for the test's failures.
func (e *killEnv) recoverCutOff(what string) (map[string]bool, string) {
	t := e.t
	preview := e.run("recover", "-json")
	found := recoverReport(preview.Stdout)
	if len(found) == 0 {
		if preview.Code != 0 {
			t.Fatalf("%s: rig recover: exit %d\n%s%s", what, preview.Code, preview.Stdout, preview.Stderr)
		}
		return nil, "rig recover found no cut-off creates"
	}
	args := []string{"recover", "-json", "-auto-approve"}
	picked := map[string]bool{}
	for _, c := range found {
		for _, n := range c.Imports {
			picked[c.Candidates[n-1].Identity.ID] = true
		}
	}
	for _, c := range found {
		if len(c.Imports) > 0 || c.Forgets {
			continue
		}
		var picks []string
		for _, cand := range c.Candidates {
			empty := len(cand.Differences) == 1 && cand.Differences[0].Name == "content" && cand.Differences[0].Found == `""`
			if (cand.Exact || empty) && !picked[cand.Identity.ID] {
				picked[cand.Identity.ID] = true
				picks = append(picks, fmt.Sprint(cand.Number))
				if !cand.Exact {
					break // one half-made object per create
				}
			}
		}
		switch {
		case c.Status == "unsearchable":
			t.Fatalf("%s: rig recover could not search for %s: %s\n%s", what, c.Address, c.Action, preview.Stdout)
		case len(picks) > 0:
			args = append(args, "-select="+c.Address+"="+strings.Join(picks, ","))
		default:
			args = append(args, "-absent="+c.Address)
		}
	}
	r := e.mustRun(args...)
	imported := map[string]bool{}
	for _, c := range recoverReport(r.Stdout) {
		if len(c.Imports) == 0 && !c.Forgets {
			t.Errorf("%s: rig recover left %s undecided: %s", what, c.Address, c.Action)
		}
		for _, n := range c.Imports {
			imported[c.Candidates[n-1].Identity.ID] = true
		}
	}
	if left := e.run("recover", "-no-color"); !strings.Contains(left.Stdout, "No creates cut off by a crash") {
		t.Errorf("%s: creates left after rig recover:\n%s%s", what, left.Stdout, left.Stderr)
	}
	return imported, fmt.Sprintf("rig recover -json:\n%srig %s:\n%s", preview.Stdout, strings.Join(args, " "), r.Stdout)
}
