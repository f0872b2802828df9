package recovery

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/planner"
)

func instance(name string) addrs.AbsResourceInstance {
	return addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: name}}}
}

func finding(name string, status planner.CutOffStatus, exact ...bool) planner.CutOffFinding {
	f := planner.CutOffFinding{Create: planner.CutOffCreate{Addr: instance(name), Count: 1}, Status: status}
	for i, e := range exact {
		id := `{"id":"` + name + string(rune('a'+i)) + `"}`
		f.Candidates = append(f.Candidates, planner.CutOffCandidate{IdentityJSON: id, Identity: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}), Exact: e})
	}
	return f
}

func TestDefault(t *testing.T) {
	tests := map[string]struct {
		finding planner.CutOffFinding
		want    Choice
	}{
		"one exact match is imported":      {finding("a", planner.CutOffFound, true, false), Choice{Picks: []int{1}, Why: "the one exact match"}},
		"an exact match per create":        {finding("a", planner.CutOffFound, true, true), Choice{Picks: []int{1, 2}, Why: "an exact match for each create cut off"}},
		"nothing found forgets the create": {finding("a", planner.CutOffAbsent), Choice{Absent: true, Why: "nothing found"}},
		"near matches wait for a decision": {finding("a", planner.CutOffNear, false), Choice{}},
		"ambiguous waits for a decision":   {finding("a", planner.CutOffAmbiguous, true, true), Choice{}},
		"unsearchable waits for the user":  {finding("a", planner.CutOffUnsearchable), Choice{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Default(tc.finding)); diff != "" {
				t.Errorf("Default (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFlagChoices(t *testing.T) {
	ins := []apply.Intent{{Address: "test_thing.a"}, {Address: "test_thing.b"}, {Address: "test_thing.c"}}
	tests := map[string]struct {
		selects, absents []string
		want             map[string]Choice
		errs             []string
	}{
		"select and absent": {
			selects: []string{"test_thing.a=2", "test_thing.b=1,3"}, absents: []string{"test_thing.c"},
			want: map[string]Choice{"test_thing.a": {Picks: []int{2}, Why: "-select"}, "test_thing.b": {Picks: []int{1, 3}, Why: "-select"}, "test_thing.c": {Absent: true, Why: "-absent"}},
		},
		"an address not cut off": {absents: []string{"test_thing.z"}, want: map[string]Choice{}, errs: []string{"test_thing.z is not among the creates cut off by a crash."}},
		"decided twice": {
			selects: []string{"test_thing.a=1"}, absents: []string{"test_thing.a"},
			want: map[string]Choice{"test_thing.a": {Picks: []int{1}, Why: "-select"}}, errs: []string{"test_thing.a is decided twice."},
		},
		"not a number":      {selects: []string{"test_thing.a=x"}, want: map[string]Choice{}, errs: []string{"-select=test_thing.a=x: want ADDR=N"}},
		"no number at all":  {selects: []string{"test_thing.a"}, want: map[string]Choice{}, errs: []string{"-select=test_thing.a: want ADDR=N"}},
		"a number twice":    {selects: []string{"test_thing.a=1,1"}, want: map[string]Choice{}, errs: []string{"want ADDR=N"}},
		"zero is no number": {selects: []string{"test_thing.a=0"}, want: map[string]Choice{}, errs: []string{"want ADDR=N"}},
		"nothing given":     {want: map[string]Choice{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ds := FlagChoices(ins, tc.selects, tc.absents)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("choices (-want +got):\n%s", diff)
			}
			if len(ds) != len(tc.errs) {
				t.Fatalf("diagnostics: got %d (%v), want %d", len(ds), ds, len(tc.errs))
			}
			for i, want := range tc.errs {
				if !ds.HasErrors() || !strings.Contains(ds[i].Detail, want) {
					t.Errorf("diagnostic %d: got %q, want it to contain %q", i, ds[i].Detail, want)
				}
			}
		})
	}
}

func TestParseAnswer(t *testing.T) {
	tests := map[string]Choice{
		"absent":  {Absent: true, Why: "answer"},
		" 2 ":     {Picks: []int{2}, Why: "answer"},
		"1, 2":    {Picks: []int{1, 2}, Why: "answer"},
		"3":       {}, // only two candidates
		"":        {},
		"maybe":   {},
		"1,1":     {},
		"absent!": {},
	}
	for answer, want := range tests {
		if diff := cmp.Diff(want, ParseAnswer(answer, 2)); diff != "" {
			t.Errorf("ParseAnswer(%q) (-want +got):\n%s", answer, diff)
		}
	}
}

func TestCheckPicks(t *testing.T) {
	f := finding("a", planner.CutOffAmbiguous, true, true)
	if ds := CheckPicks(f, Choice{Picks: []int{2, 1}}); ds.HasErrors() {
		t.Errorf("picks within the candidates: %v", ds)
	}
	ds := CheckPicks(f, Choice{Picks: []int{3}})
	if !ds.HasErrors() || ds[0].Detail != "-select=test_thing.a: test_thing.a has 2 candidate(s)." {
		t.Errorf("a pick beyond the candidates: got %v", ds)
	}
	if ds := CheckPicks(f, Choice{Absent: true}); ds.HasErrors() {
		t.Errorf("no picks: %v", ds)
	}
}

func TestResolve(t *testing.T) {
	a := finding("a", planner.CutOffAmbiguous, true, true)
	b := finding("b", planner.CutOffAbsent)
	c := finding("c", planner.CutOffNear, false)
	occupied := finding("d", planner.CutOffFound, true)
	occupied.Occupied = true
	res, ds := Resolve([]planner.CutOffFinding{a, b, c, occupied}, map[string]Choice{
		"test_thing.a": {Picks: []int{2, 1}},
		"test_thing.b": {Absent: true},
		"test_thing.d": {Picks: []int{1}},
	})
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics: %v", ds)
	}
	type target struct {
		Addr, ID        string
		Deposed, Beside bool
	}
	var got []target
	for _, tg := range res.Targets {
		if tg.Identity.IsNull() {
			t.Errorf("%s: the import has no identity", tg.Addr)
		}
		got = append(got, target{tg.Addr.String(), tg.ID, tg.Deposed, tg.BesideDeposed})
	}
	want := []target{
		{"test_thing.a", `{"id":"ab"}`, false, true},
		{"test_thing.a", `{"id":"aa"}`, true, true},
		{"test_thing.d", `{"id":"da"}`, true, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"test_thing.b"}, res.Forgotten); diff != "" {
		t.Errorf("forgotten (-want +got):\n%s", diff)
	}
	if res.Undecided != 1 {
		t.Errorf("undecided: got %d, want 1", res.Undecided)
	}
}

func TestResolveRefusesAnObjectImportedTwice(t *testing.T) {
	a := finding("a", planner.CutOffAmbiguous, true)
	b := finding("b", planner.CutOffAmbiguous, true)
	b.Candidates = a.Candidates // the same object listed for both
	_, ds := Resolve([]planner.CutOffFinding{a, b}, map[string]Choice{"test_thing.a": {Picks: []int{1}}, "test_thing.b": {Picks: []int{1}}})
	if !ds.HasErrors() || ds[0].Summary != "Object imported twice" || !strings.Contains(ds[0].Detail, "both test_thing.a and test_thing.b") {
		t.Errorf("got %v, want an error naming both addresses", ds)
	}
}

func TestLeft(t *testing.T) {
	ins := []apply.Intent{{Address: "test_thing.a"}, {Address: "test_thing.b"}, {Address: "test_thing.a"}, {Address: "test_thing.c"}}
	var got []string
	for _, in := range Left(ins, []string{"test_thing.a"}) {
		got = append(got, in.Address)
	}
	if diff := cmp.Diff([]string{"test_thing.b", "test_thing.c"}, got); diff != "" {
		t.Errorf("left (-want +got):\n%s", diff)
	}
	if left := Left(ins[:1], []string{"test_thing.a"}); left != nil {
		t.Errorf("nothing left: got %v", left)
	}
}
