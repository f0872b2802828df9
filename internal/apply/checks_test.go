package apply

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// summaries renders diagnostics one a line as "severity: summary: detail".
func summaries(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Severity.String()+": "+d.Summary+": "+d.Detail)
	}
	return out
}

// A check assertion known only after apply is evaluated once its
// resource is created: its failure is a warning and the apply succeeds,
// with the object recorded; one in a child module too.
func TestCheckFailureAtApplyIsWarning(t *testing.T) {
	const src = `-- main.tf --
resource "test_thing" "a" {
  key = "a"
}
check "id" {
  assert {
    condition     = test_thing.a.id == "expected"
    error_message = "The id is ${test_thing.a.id}."
  }
}
module "child" {
  source = "./child"
  id     = test_thing.a.id
}
-- child/main.tf --
variable "id" {}
check "child" {
  assert {
    condition     = var.id == "expected"
    error_message = "The child sees ${var.id}."
  }
}
`
	s := newScenario(t)
	_, planDiags := s.plan(src, plan.NormalMode)
	if planDiags.HasErrors() || len(planDiags) != 2 {
		t.Fatalf("plan diagnostics: %q, want two warnings", summaries(planDiags))
	}
	_, _, ds := s.step(src, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatalf("apply failed: %v", ds.Err())
	}
	got := summaries(ds)
	want := []string{
		"warning: Check block assertion failed: The id is id-1.",
		"warning: Check block assertion failed: The child sees id-1.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("apply diagnostics (-want +got):\n%s", diff)
	}
	if s.state.Object(addrs.ObjectAddr{Instance: thing("a")}) == nil {
		t.Error("test_thing.a not recorded")
	}
}

// An output precondition known only after apply is checked during apply,
// in child modules too: its failure is an error.
func TestOutputPreconditionAtApply(t *testing.T) {
	const src = `-- main.tf --
resource "test_thing" "a" {
  key = "a"
}
module "child" {
  source = "./child"
  id     = test_thing.a.id
}
-- child/main.tf --
variable "id" {}
output "id" {
  value = var.id
  precondition {
    condition     = var.id == "expected"
    error_message = "Unexpected id ${var.id}."
  }
}
`
	s := newScenario(t)
	_, _, ds := s.step(src, plan.NormalMode)
	want := []string{"error: Module output value precondition failed: Unexpected id id-1."}
	if diff := cmp.Diff(want, summaries(ds.Errors())); diff != "" {
		t.Errorf("apply errors (-want +got):\n%s", diff)
	}
}

// echoProvider adds to the test provider a data source, test_echo, whose
// output is its input; reading input "fail" fails.
type echoProvider struct{ *providertest.Provider }

func (p echoProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	s, ds := p.Provider.GetProviderSchema(ctx)
	s.DataSources["test_echo"] = provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{
		"input":  {Type: cty.String, Optional: true},
		"output": {Type: cty.String, Computed: true},
	}}}
	return s, ds
}

func (p echoProvider) ValidateDataResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}

func (p echoProvider) ReadDataSource(_ context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	in := req.Config.GetAttr("input")
	if in.RawEquals(cty.StringVal("fail")) {
		return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Echo failed", "The input was %q.", "fail")}}
	}
	return provider.ReadDataResponse{State: cty.ObjectVal(map[string]cty.Value{"input": in, "output": in})}
}

// Data source reads deferred to apply: a failing postcondition is an
// error that stops the dependent; a scoped data source that cannot be read
// is a warning, and its check's assertions are not evaluated.
func TestDataSourcesReadAtApply(t *testing.T) {
	const src = `-- main.tf --
resource "test_thing" "a" {
  key = "a"
}
data "test_echo" "post" {
  input = test_thing.a.id
  lifecycle {
    postcondition {
      condition     = self.output == "expected"
      error_message = "Read ${self.output}."
    }
  }
}
resource "test_thing" "dependent" {
  key = data.test_echo.post.output
}
check "scoped" {
  data "test_echo" "probe" {
    input = test_thing.a.id == "" ? "ok" : "fail"
  }
  assert {
    condition     = data.test_echo.probe.output == "ok"
    error_message = "never evaluated: the read failed"
  }
}
`
	s := newScenario(t)
	s.wrap = func(p *providertest.Provider) provider.Interface { return echoProvider{p} }
	_, ops, ds := s.step(src, plan.NormalMode)
	// The two reads run in parallel: their diagnostics come in any order.
	want := []string{
		"error: Resource postcondition failed: Read id-1.",
		"warning: Echo failed: The input was \"fail\".",
	}
	got := summaries(ds)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("apply diagnostics (-want +got):\n%s", diff)
	}
	if got := providertest.OrderString(ops); got != "create a" {
		t.Errorf("operations: %s, want only create a", got)
	}
}
