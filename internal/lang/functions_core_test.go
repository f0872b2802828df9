package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestCoreNamespace checks that every built-in is also core::NAME, the same
// function under a second name.
func TestCoreNamespace(t *testing.T) {
	fns := Functions(".")
	plain := 0
	for name := range fns {
		if strings.HasPrefix(name, coreNamespace) {
			if _, ok := fns[strings.TrimPrefix(name, coreNamespace)]; !ok {
				t.Errorf("%s has no plain name", name)
			}
			continue
		}
		plain++
		if _, ok := fns[coreNamespace+name]; !ok {
			t.Errorf("%s has no core:: name", name)
		}
	}
	if plain != len(fns)/2 {
		t.Errorf("%d plain names of %d", plain, len(fns))
	}

	runFuncCases(t, &Scope{Data: testData(), ProviderFunctions: testProviderFunctions()}, []funcCase{
		{name: "call", src: `core::upper("a")`, want: cty.StringVal("A")},
		{name: "both names agree", src: `core::uuidv5("dns", "tada") == uuidv5("dns", "tada")`, want: cty.True},
		{name: "with provider functions", src: `core::lower(provider::test::upper("a"))`, want: cty.StringVal("a")},
		{name: "file function", src: `core::fileexists("nope")`, want: cty.False},
		{name: "unknown argument", src: `core::upper(var.unknown)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "sensitive", src: `core::sensitive("a")`, want: cty.StringVal("a").Mark(Sensitive)},
		{name: "no such builtin", src: `core::nosuch(1)`, summary: "Call to unknown function",
			detail: `There is no builtin (core::) function named "nosuch".`},
		{name: "error names the function as called", src: `core::uuidv5("x", "a")`, summary: callErr,
			detail: `Call to function "core::uuidv5" failed: uuidv5() doesn't support namespace x (invalid UUID length: 1).`},
	})
	// The Scope without provider functions uses the shared table.
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "plain scope", src: `core::join("-", ["a", "b"])`, want: cty.StringVal("a-b")},
		{name: "plain scope, no such builtin", src: `core::nosuch()`, summary: "Call to unknown function",
			detail: `There is no builtin (core::) function named "nosuch".`},
	})
}
