package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

func message(s string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"message": cty.StringVal(s)})
}

// Actions travel over both protocols: their schemas, the validation and
// plan of a configuration, and an invocation's streamed progress and its
// end, as the provider's operation log records it.
func TestActions(t *testing.T) {
	for _, v := range []string{"5", "6"} {
		t.Run("protocol"+v, func(t *testing.T) {
			oplog := filepath.Join(t.TempDir(), "ops")
			t.Setenv("RIG_TESTPROVIDER_OPLOG", oplog)
			p := startTest(t, v)
			ctx := context.Background()
			s, ds := p.GetProviderSchema(ctx)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			logSchema := s.Actions["test_log"]
			if logSchema.Block == nil || !logSchema.Block.Attributes["message"].Required {
				t.Fatalf("test_log schema = %#v", logSchema)
			}
			var ap provider.Actions = p
			if ds := ap.ValidateActionConfig(ctx, "test_log", cty.ObjectVal(map[string]cty.Value{"message": cty.UnknownVal(cty.String)})); ds.HasErrors() {
				t.Errorf("validate with an unknown message: %v", ds.Err())
			}
			if ds := ap.PlanAction(ctx, provider.ActionRequest{TypeName: "test_log", Config: message("invalid")}); !ds.HasErrors() || ds[0].Summary != "Invalid message" {
				t.Errorf("plan of a refused message: %v", ds)
			}
			if ds := ap.PlanAction(ctx, provider.ActionRequest{TypeName: "test_nope", Config: message("x")}); !ds.HasErrors() || ds[0].Summary != "Invalid action type" {
				t.Errorf("plan of an unknown type: %v", ds)
			}
			var progress []string
			if ds := ap.InvokeAction(ctx, provider.ActionRequest{TypeName: "test_log", Config: message("hello")}, func(m string) { progress = append(progress, m) }); ds.HasErrors() {
				t.Fatalf("invoke: %v", ds.Err())
			}
			if strings.Join(progress, "|") != "logged hello" {
				t.Errorf("progress = %q", progress)
			}
			progress = nil
			ds = ap.InvokeAction(ctx, provider.ActionRequest{TypeName: "test_fail", Config: message("boom")}, func(m string) { progress = append(progress, m) })
			if !ds.HasErrors() || ds[0].Summary != "Action failed" || ds[0].Detail != "boom" {
				t.Errorf("invoke of test_fail: %v", ds)
			}
			if strings.Join(progress, "|") != "about to fail" {
				t.Errorf("test_fail progress = %q", progress)
			}
			b, err := os.ReadFile(oplog)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(b); got != "action hello\nfail boom\n" {
				t.Errorf("operation log = %q", got)
			}
		})
	}
}
