package ui

import (
	"bytes"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

func TestJSONView(t *testing.T) {
	var buf bytes.Buffer
	v := NewJSONView(&buf)
	clock := time.Date(2025, 6, 1, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	v.Now = func() time.Time {
		clock = clock.Add(1500 * time.Microsecond)
		return clock
	}
	v.Version("1.10.6", "0.1.0")
	v.Log("starting <plan> & apply")
	v.Plan(mixedPlan())
	applySequence(v)
	v.ChangeSummary(ChangeSummary{Add: 2, Change: 1, Operation: OperationApply})
	if err := v.Outputs(map[string]state.OutputValue{
		"name":   {Value: cty.StringVal("web")},
		"secret": {Value: cty.StringVal("s"), Sensitive: true},
		"list":   {Value: cty.ListVal([]cty.Value{cty.NumberIntVal(1)})},
	}); err != nil {
		t.Fatal(err)
	}
	v.Diagnostics(testDiagnostics(), map[string][]byte{"main.tf": []byte(mainTF)})
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/jsonview.golden", buf.Bytes())
}

// TestChangeReasonsJSON checks the reason a planned_change message gives
// for a data source read during apply, as OpenTofu's stream gives it.
func TestChangeReasonsJSON(t *testing.T) {
	for reason, want := range map[plan.ActionReason]string{
		plan.ReasonReadConfigUnknown:       "read_because_config_unknown",
		plan.ReasonReadDependencyPending:   "read_because_dependency_pending",
		plan.ReadBecauseCheckNested:        "read_because_check_nested",
		plan.DeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
	} {
		c := &plan.ResourceInstanceChange{Addr: managed("terraform_data", "a", addrs.NoKey), Action: plan.Read, Reason: reason}
		if got := changeToJSON(c).Reason; got != want {
			t.Errorf("reason %d: got %q, want %q", reason, got, want)
		}
	}
}
