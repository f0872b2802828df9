package workdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlanSelectionParse: each planning option's addresses are parsed
// into the plan options, a bad one reported with the option it came
// with, and the good ones kept.
func TestPlanSelectionParse(t *testing.T) {
	file := filepath.Join(t.TempDir(), "targets")
	if err := os.WriteFile(file, []byte("# comment\n\nmodule.net\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		sel    PlanSelection
		want   []string // the options' addresses, as "replace ADDR", "target ADDR", …
		errors []string // the summaries of the errors
	}{
		"every option": {
			sel: PlanSelection{Replace: []string{"test_thing.a[0]"}, Targets: []string{"test_thing.b"}, TargetFiles: []string{file},
				Excludes: []string{"module.x"}, Invoke: []string{"action.test_act.go"}},
			want: []string{"replace test_thing.a[0]", "target test_thing.b", "target module.net", "exclude module.x", "invoke action.test_act.go"},
		},
		"an action instance": {sel: PlanSelection{Invoke: []string{`action.test_act.go["x"]`}}, want: []string{`invoke action.test_act.go["x"]`}},
		"bad addresses": {
			sel:    PlanSelection{Replace: []string{"test_thing"}, Invoke: []string{"test_thing.a", "action.test_act.go"}},
			want:   []string{"invoke action.test_act.go"},
			errors: []string{"Invalid replace address", `Invalid target "test_thing.a"`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			opts, ds := tc.sel.Parse(map[string][]byte{})
			var got []string
			for _, a := range opts.Replace {
				got = append(got, "replace "+a.String())
			}
			for _, a := range opts.Targets {
				got = append(got, "target "+a.String())
			}
			for _, a := range opts.Excludes {
				got = append(got, "exclude "+a.String())
			}
			for _, a := range opts.Invoke {
				got = append(got, "invoke "+a.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("addresses (-want +got):\n%s", diff)
			}
			var errs []string
			for _, d := range ds {
				errs = append(errs, d.Summary)
			}
			if diff := cmp.Diff(tc.errors, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if len(tc.errors) > 0 && !strings.Contains(ds.Err().Error(), tc.errors[0]) {
				t.Errorf("error %v", ds.Err())
			}
		})
	}
}
