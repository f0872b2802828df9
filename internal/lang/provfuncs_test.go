package lang

import (
	"reflect"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/rig-iac/rig/internal/addrs"
)

func testProviderFunctions() *ProviderFunctions {
	return NewProviderFunctions(map[string]function.Function{
		ProviderFunctionName("test", "", "upper"):     stdlib.UpperFunc,
		ProviderFunctionName("test", "west", "upper"): stdlib.UpperFunc,
		ProviderFunctionName("test", "", "shout"):     stdlib.UpperFunc,
	}, map[string]addrs.Provider{
		"test":  addrs.NewDefaultProvider("test"),
		"empty": addrs.NewDefaultProvider("empty"),
	})
}

func TestScopeProviderFunctions(t *testing.T) {
	pf := testProviderFunctions()
	s := &Scope{Data: testData(), ProviderFunctions: pf}
	fns := s.Functions()
	for _, name := range []string{"upper", "provider::test::upper", "provider::test::west::upper"} {
		if _, ok := fns[name]; !ok {
			t.Errorf("function %s missing from the table", name)
		}
	}
	if again := s.Functions(); reflect.ValueOf(again).Pointer() != reflect.ValueOf(fns).Pointer() {
		t.Error("the merged table is built again for the same scope settings")
	}
	plain := (&Scope{Data: testData()}).Functions()
	if _, ok := plain["provider::test::upper"]; ok {
		t.Error("a scope without provider functions has them")
	}
	if reflect.ValueOf(plain).Pointer() != reflect.ValueOf(Functions(".")).Pointer() {
		t.Error("a scope without provider functions does not use the shared library table")
	}

	v, ds := s.EvalExpr(parseExpr(t, `provider::test::upper(var.name)`), cty.String)
	if ds.HasErrors() || !v.RawEquals(cty.StringVal("WEB")) {
		t.Errorf("provider::test::upper(var.name) = %#v, %v", v, ds.Err())
	}
}

// TestProviderFunctionDiagnostics checks OpenTofu's wording of calls to
// provider functions that are not in scope.
func TestProviderFunctionDiagnostics(t *testing.T) {
	tests := []struct {
		name, expr      string
		summary, detail string
	}{
		{"provider not declared", `provider::other::upper("a")`, "Unknown function provider",
			`Provider "other" does not exist within the required_providers of this module`},
		{"function not offered", `provider::test::lower("a")`, "Function not found in provider",
			`Function "lower" was not registered by provider "provider[\"registry.terraform.io/hashicorp/test\"]"`},
		{"provider without functions", `provider::empty::f()`, "Function not found in provider",
			`Function "f" was not registered by provider "provider[\"registry.terraform.io/hashicorp/empty\"]"`},
		{"alias", `provider::test::east::lower("a")`, "Function not found in provider",
			`Function "lower" was not registered by provider "provider[\"registry.terraform.io/hashicorp/test\"].east"`},
		{"another namespace", `foo::upper("a")`, "Unknown function namespace",
			`Function "foo::upper" does not exist within a valid namespace (provider,core)`},
		{"no such builtin", `core::shout("a")`, "Call to unknown function",
			`There is no builtin (core::) function named "shout".`},
		{"namespace left out", `shout("a")`, "Call to unknown function",
			`There is no function named "shout". Did you mean "provider::test::shout"?`},
	}
	s := &Scope{Data: testData(), ProviderFunctions: testProviderFunctions()}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := s.EvalExpr(parseExpr(t, tt.expr), cty.DynamicPseudoType)
			if len(ds) != 1 || ds[0].Summary != tt.summary || ds[0].Detail != tt.detail {
				t.Errorf("diagnostics = %v\nwant %s: %s", ds, tt.summary, tt.detail)
			}
		})
	}
}
