package planner

import (
	"slices"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// Near candidates are ranked by how many planned values they have, then
// by how few they differ in, then by identity; exact ones come first.
func TestRankCutOffCandidates(t *testing.T) {
	near := func(id string, matched, differences int) CutOffCandidate {
		c := CutOffCandidate{IdentityJSON: id}
		for range matched {
			c.Matched = append(c.Matched, "m")
		}
		for range differences {
			c.Differences = append(c.Differences, CutOffDifference{Name: "d"})
		}
		return c
	}
	a := addrs.Resource{Mode: addrs.Managed, Type: "test_file", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
	fs := []CutOffFinding{{Create: CutOffCreate{Addr: a, Count: 1}, Candidates: []CutOffCandidate{
		near("a", 0, 3), near("b", 2, 1), near("c", 2, 0), near("d", 0, 1), near("e", 1, 2), near("f", 2, 1),
	}}}
	classifyCutOff(fs)
	var got []string
	for _, c := range fs[0].Candidates {
		got = append(got, c.IdentityJSON)
	}
	if want := []string{"c", "b", "f", "e", "d", "a"}; !slices.Equal(got, want) || fs[0].Status != CutOffNear {
		t.Errorf("ranked %v (%s), want %v (near)", got, fs[0].Status, want)
	}
}
