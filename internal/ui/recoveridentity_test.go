package ui

import (
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/recovery"
)

// How a create planned with an identity was searched for: by it first
// when the list takes it as a filter; otherwise each object listed is
// compared with it.
func TestRecoverSearchedWithIdentity(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.Managed, Type: "test_file", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
	tests := map[string]struct {
		finding planner.CutOffFinding
		want    string
	}{
		"filtered by identity": {
			planner.CutOffFinding{PlannedIdentity: []string{`id = "alpha"`}, IdentityFiltered: true, SearchedBy: []string{`content = "aye"`}},
			`  searched by the planned identity (id = "alpha"), by the planned values (content = "aye"), and among every test_file object the state does not record` + "\n",
		},
		"identity not a filter": {
			planner.CutOffFinding{PlannedIdentity: []string{`region = "eu"`}, SearchedBy: []string{`content = "aye"`}},
			`  searched by the planned values (content = "aye"), and among every test_file object the state does not record, for the planned identity (region = "eu")` + "\n",
		},
		"no filter at all": {
			planner.CutOffFinding{PlannedIdentity: []string{`region = "eu"`}},
			`  searched among every test_file object the state does not record, for the planned identity (region = "eu")` + "\n",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			f := tt.finding
			f.Create = planner.CutOffCreate{Addr: addr, Count: 1}
			f.Status = planner.CutOffAbsent
			RecoverView{W: &b}.Finding(f, recovery.Choice{})
			if !strings.Contains(b.String(), tt.want) {
				t.Errorf("got:\n%s\nwant it to contain:\n%s", b.String(), tt.want)
			}
		})
	}
}
