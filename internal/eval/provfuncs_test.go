package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// wrongResult is the test provider with a join that returns a number
// although its definition promises a string.
type wrongResult struct{ *providertest.Provider }

func (p wrongResult) CallFunction(ctx context.Context, name string, args []cty.Value) (cty.Value, error) {
	if name == "join" {
		return cty.NumberIntVal(1), nil
	}
	return p.Provider.CallFunction(ctx, name, args)
}

// TestProviderFunctions evaluates calls of the test provider's functions
// as the planner does: unknown arguments, even nested ones, give unknown
// results without a call; the provider's errors become hcl diagnostics.
func TestProviderFunctions(t *testing.T) {
	const src = `
terraform {
  required_providers {
    test      = { source = "hashicorp/test" }
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
`
	tests := []struct {
		name, expr string
		want       cty.Value
		wantErr    string
	}{
		{"known", `provider::test::upper("abc")`, cty.StringVal("ABC"), ""},
		{"variadic", `provider::test::join("-", "a", "b", "c")`, cty.StringVal("a-b-c"), ""},
		{"variadic, none", `provider::test::join("-")`, cty.StringVal(""), ""},
		{"unknown", `provider::test::upper(var.unknown)`, cty.UnknownVal(cty.String), ""},
		{"unknown variadic argument", `provider::test::join("-", "a", var.unknown)`, cty.UnknownVal(cty.String), ""},
		// encode_expr fails on a value that is not wholly known: it is not called.
		{"unknown inside an argument", `provider::terraform::encode_expr(["a", var.unknown])`, cty.UnknownVal(cty.String), ""},
		{"argument error", `provider::test::upper("")`, cty.NilVal, `Invalid value for "s" parameter: the string must not be empty.`},
		{"null argument", `provider::test::upper(null)`, cty.NilVal, `Invalid value for "s" parameter: argument must not be null.`},
		{"result of another type", `provider::test::join("-")`, cty.NilVal, "returned a number, not the string its definition of join promises"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := providertest.New()
			var inst provider.Interface = live
			if strings.HasPrefix(tt.name, "result") {
				inst = wrongResult{live}
			}
			set := provider.NewSet(provider.Factories{
				providertest.Address():                func() (provider.Interface, error) { return inst, nil },
				addrs.NewBuiltInProvider("terraform"): func() (provider.Interface, error) { return builtin.NewTerraform(), nil },
			})
			defer set.Close()
			ev, ds := eval.New(context.Background(), eval.Options{Config: loadConfig(t, src),
				Variables: map[string]cty.Value{"unknown": cty.UnknownVal(cty.String)}, Providers: set})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			expr, hds := hclsyntax.ParseExpression([]byte(tt.expr), "test.tf", hcl.InitialPos)
			if hds.HasErrors() {
				t.Fatal(hds)
			}
			got, ds := ev.Scope(addrs.RootModule, lang.InstanceData{}).EvalExpr(expr, cty.DynamicPseudoType)
			if tt.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantErr) {
					t.Fatalf("diagnostics %v, want %q", ds, tt.wantErr)
				}
				return
			}
			if ds.HasErrors() || !got.RawEquals(tt.want) {
				t.Fatalf("%s = %#v, %v; want %#v", tt.expr, got, ds, tt.want)
			}
			for _, c := range live.FunctionCalls() {
				for _, a := range c.Args {
					if !a.IsWhollyKnown() {
						t.Errorf("the provider was called with an unknown argument: %s%#v", c.Name, c.Args)
					}
				}
			}
		})
	}
}

func loadConfig(t *testing.T, src string) *config.Module {
	t.Helper()
	cfg, ds := config.LoadFiles(map[string][]byte{"main.tf": []byte(src)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return cfg
}
