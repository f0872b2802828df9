package planner

import (
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// Each finding's status follows from its candidates and those of the
// others: one exact match per create cut off is found, more (or one
// another create claims too) is ambiguous, only near ones near, none
// absent; near candidates give way to exact ones. An object with the
// identity planned for the create but other values is half-made; one
// with the identity planned for another create is not a candidate.
func TestClassifyCutOff(t *testing.T) {
	exact := func(id string) CutOffCandidate { return CutOffCandidate{IdentityJSON: id, Exact: true} }
	near := func(id string) CutOffCandidate { return CutOffCandidate{IdentityJSON: id} }
	half := func(id string) CutOffCandidate { return CutOffCandidate{IdentityJSON: id, IdentityMatch: true} }
	tests := []struct {
		name  string
		count int
		cands []CutOffCandidate
		other []CutOffCandidate // another create's candidates
		want  CutOffStatus
		left  int
	}{
		{"one exact", 1, []CutOffCandidate{exact("a")}, nil, CutOffFound, 1},
		{"exact beside near", 1, []CutOffCandidate{near("h"), exact("a")}, nil, CutOffFound, 1},
		{"two exact, one create", 1, []CutOffCandidate{exact("a"), exact("b")}, nil, CutOffAmbiguous, 2},
		{"two exact, two creates", 2, []CutOffCandidate{exact("a"), exact("b")}, nil, CutOffFound, 2},
		{"exact shared", 1, []CutOffCandidate{exact("a")}, []CutOffCandidate{exact("a")}, CutOffAmbiguous, 1},
		{"near only", 1, []CutOffCandidate{near("h")}, nil, CutOffNear, 1},
		{"near is another's exact", 1, []CutOffCandidate{near("a")}, []CutOffCandidate{exact("a")}, CutOffAbsent, 0},
		{"none", 1, nil, nil, CutOffAbsent, 0},
		{"planned identity, other values", 1, []CutOffCandidate{half("a")}, nil, CutOffHalfMade, 1},
		{"planned identity beside near", 1, []CutOffCandidate{near("h"), half("a")}, nil, CutOffHalfMade, 1},
		{"exact beside planned identity", 1, []CutOffCandidate{half("h"), exact("a")}, nil, CutOffFound, 1},
		{"another's planned identity", 1, []CutOffCandidate{near("a")}, []CutOffCandidate{half("a")}, CutOffAbsent, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := addrs.Resource{Mode: addrs.Managed, Type: "test_file", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
			b := addrs.Resource{Mode: addrs.Managed, Type: "test_file", Name: "b"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
			fs := []CutOffFinding{
				{Create: CutOffCreate{Addr: a, Count: tt.count}, Status: CutOffAbsent, Candidates: tt.cands},
				{Create: CutOffCreate{Addr: b, Count: 1}, Status: CutOffAbsent, Candidates: tt.other},
			}
			classifyCutOff(fs)
			if fs[0].Status != tt.want || len(fs[0].Candidates) != tt.left {
				t.Errorf("status %s with %d candidates, want %s with %d", fs[0].Status, len(fs[0].Candidates), tt.want, tt.left)
			}
			if len(fs[0].Candidates) > 0 && tt.want == CutOffFound && !fs[0].Candidates[0].Exact {
				t.Errorf("the exact candidate is not first: %v", fs[0].Candidates)
			}
		})
	}
}
