//go:build linux

package killtest

import (
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// atGate counts the replacements of test_file.cbd that a kill left at
// their health gate: a new object recorded tainted beside the deposed old
// one (the state a gated replacement keeps until its new object passes).
func (e *killEnv) atGate(i int) int {
	r := e.mustRun("state", "pull")
	var sf commandtest.StateFile
	if err := json.Unmarshal([]byte(r.Stdout), &sf); err != nil {
		e.t.Fatalf("iteration %d: state pull: %v", i, err)
	}
	tainted, deposed := map[string]bool{}, map[string]bool{}
	for _, res := range sf.Resources {
		if res.Type != "test_file" || res.Name != "cbd" {
			continue
		}
		for _, inst := range res.Instances {
			key := fmt.Sprint(inst.IndexKey)
			switch {
			case inst.Deposed != "":
				deposed[key] = true
			case inst.Status == "tainted":
				tainted[key] = true
			}
		}
	}
	n := 0
	for key := range tainted {
		if deposed[key] {
			n++
		}
	}
	return n
}
