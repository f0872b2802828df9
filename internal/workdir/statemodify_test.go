package workdir

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// TestMoveObjects: what a state mv moves, where to, and what it refuses,
// within one state.
func TestMoveObjects(t *testing.T) {
	tests := []struct {
		name     string
		from, to string
		dry      bool
		want     []string // the objects after, sorted
		wantN    int
		wantErr  string
	}{
		{name: "an instance", from: "terraform_data.a[0]", to: "terraform_data.b[5]", wantN: 1,
			want: []string{"module.m.terraform_data.c", "terraform_data.a[1]", "terraform_data.b[5]"}},
		{name: "a resource's instances", from: "terraform_data.a", to: "terraform_data.z", wantN: 2,
			want: []string{"module.m.terraform_data.c", "terraform_data.z[0]", "terraform_data.z[1]"}},
		{name: "a module", from: "module.m", to: "module.n[\"k\"]", wantN: 1,
			want: []string{"module.n[\"k\"].terraform_data.c", "terraform_data.a[0]", "terraform_data.a[1]"}},
		{name: "dry run moves nothing", from: "terraform_data.a", to: "terraform_data.z", dry: true, wantN: 2,
			want: []string{"module.m.terraform_data.c", "terraform_data.a[0]", "terraform_data.a[1]"}},
		{name: "onto an object", from: "terraform_data.a[0]", to: "terraform_data.a[1]", wantErr: "there is already an object at terraform_data.a[1]"},
		{name: "another type", from: "terraform_data.a", to: "null_resource.a", wantErr: "resource types don't match"},
		{name: "a resource onto an instance", from: "terraform_data.a", to: "terraform_data.b[0]", wantErr: "an instance can only move to an instance"},
		{name: "nothing there", from: "terraform_data.nope", to: "terraform_data.b", wantErr: "Cannot move terraform_data.nope: does not match anything in the current state."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testState(t, "terraform_data.a[0]", "terraform_data.a[1]", "module.m.terraform_data.c")
			from, err := ParseStateTarget(tt.from)
			if err != nil {
				t.Fatal(err)
			}
			to, err := ParseStateTarget(tt.to)
			if err != nil {
				t.Fatal(err)
			}
			n, ds := MoveObjects(s, s, from, to, tt.dry)
			if tt.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantErr) {
					t.Fatalf("diagnostics %v, want %q", ds, tt.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if n != tt.wantN {
				t.Errorf("moved %d, want %d", n, tt.wantN)
			}
			var got []string
			for _, oa := range s.Objects() {
				got = append(got, oa.String())
			}
			slices.Sort(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}

// testState is a state holding a current object at each address.
func testState(t *testing.T, addresses ...string) *state.State {
	t.Helper()
	s := state.New()
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for _, a := range addresses {
		addr, err := addrs.ParseAbsResourceInstanceStr(a)
		if err != nil {
			t.Fatal(err)
		}
		s.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{Status: state.Ready, AttrsJSON: json.RawMessage(`{"id":"x"}`)}, pc)
	}
	return s
}
