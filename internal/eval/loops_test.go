package eval

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// TestEvaluationLoops evaluates, from the root module as the console does,
// values whose computation needs their own result: each is a diagnostic
// naming the loop, never a wait for itself. A hang fails the test at its
// deadline.
func TestEvaluationLoops(t *testing.T) {
	child := `
variable "in" {}
output "out" { value = var.in }
output "other" { value = "k" }
`
	tests := []struct {
		name    string
		files   map[string]string
		expr    string
		summary string
		at      string // file:line of the diagnostic
	}{
		{
			name:    "local referring to itself",
			files:   map[string]string{"main.tf": "locals {\n  a = local.a\n}\n"},
			expr:    "local.a",
			summary: "Self-referencing local value",
			at:      "main.tf:2",
		},
		{
			name:    "local referring to itself in a for expression",
			files:   map[string]string{"main.tf": "locals {\n  a = [for v in local.a : v]\n}\n"},
			expr:    "local.a",
			summary: "Self-referencing local value",
			at:      "main.tf:2",
		},
		{
			name:    "two locals in a loop",
			files:   map[string]string{"main.tf": "locals {\n  a = local.b\n  b = local.a\n}\n"},
			expr:    "local.a",
			summary: "Cycle: local.a, local.b",
			at:      "main.tf:3",
		},
		{
			name: "module output feeding its own input",
			files: map[string]string{
				"main.tf":   "module \"m\" {\n  source = \"./m\"\n  in     = module.m.out\n}\n",
				"m/main.tf": child,
			},
			expr:    "module.m.out",
			summary: "Cycle: module.m.output.out, module.m.var.in",
			at:      "main.tf:3",
		},
		{
			name: "local feeding a module whose output it is",
			files: map[string]string{
				"main.tf":   "locals { l = module.m.out }\nmodule \"m\" {\n  source = \"./m\"\n  in     = local.l\n}\n",
				"m/main.tf": child,
			},
			expr:    "local.l",
			summary: "Cycle: local.l, module.m.output.out, module.m.var.in",
			at:      "main.tf:4",
		},
		{
			name: "module count referring to the module",
			files: map[string]string{
				"main.tf":   "module \"m\" {\n  source = \"./m\"\n  count  = length(module.m)\n  in     = 1\n}\n",
				"m/main.tf": child,
			},
			expr:    "module.m",
			summary: "Cycle: module.m",
			at:      "main.tf:3",
		},
		{
			name:    "local in a child module referring to itself",
			files:   map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\n", "m/main.tf": "locals {\n  z = local.z\n}\noutput \"o\" { value = local.z }\n"},
			expr:    "module.m.o",
			summary: "Self-referencing local value",
			at:      "m/main.tf:2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Evaluator{Config: loadTree(t, tt.files), Resources: noResources{}}
			ds := evalWithDeadline(t, e, tt.expr)
			for _, d := range ds {
				if d.Summary == tt.summary && d.Subject != nil && fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line) == tt.at {
					return
				}
			}
			t.Errorf("diagnostics: %v\nwant %q at %s", ds, tt.summary, tt.at)
		})
	}
}

// TestEvaluationWithoutLoop checks that a value asked for twice on one
// path without a loop (a module's input from another of its outputs) is
// no loop.
func TestEvaluationWithoutLoop(t *testing.T) {
	e := &Evaluator{Config: loadTree(t, map[string]string{
		"main.tf":   "module \"m\" {\n  source = \"./m\"\n  in     = module.m.other\n}\nlocals {\n  a = local.b\n  b = local.c\n  c = \"x\"\n  d = [local.b, local.c]\n}\n",
		"m/main.tf": "variable \"in\" {}\noutput \"out\" { value = var.in }\noutput \"other\" { value = \"k\" }\n",
	}), Resources: noResources{}}
	for expr, want := range map[string]cty.Value{
		"module.m.out": cty.StringVal("k"),
		"local.d":      cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.StringVal("x")}),
	} {
		if ds := evalWithDeadline(t, e, expr); ds.HasErrors() {
			t.Errorf("%s: %v", expr, ds.Err())
		}
		if got := evalIn(t, e, addrs.RootModule, expr); !got.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", expr, got, want)
		}
	}
}

// evalWithDeadline evaluates src in the root module, failing the test if
// the evaluation does not return within a minute (it waits for itself).
func evalWithDeadline(t *testing.T, e *Evaluator, src string) diag.Diagnostics {
	t.Helper()
	expr, hds := hclsyntax.ParseExpression([]byte(src), "console.tf", hcl.InitialPos)
	if hds.HasErrors() {
		t.Fatal(hds)
	}
	done := make(chan diag.Diagnostics, 1)
	go func() {
		_, ds := e.Scope(addrs.RootModule, lang.InstanceData{}).EvalExpr(expr, cty.DynamicPseudoType)
		done <- ds
	}()
	select {
	case ds := <-done:
		return ds
	case <-time.After(time.Minute):
		t.Fatalf("evaluating %s did not return: it waits for itself", src)
		return nil
	}
}
