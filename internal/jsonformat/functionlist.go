package jsonformat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty/function"
)

// notListedFunctions are in the function table but not for
// configurations: list and map only say they were removed, type works in
// the console only.
var notListedFunctions = []string{"list", "map", "type"}

// NewFunctionSignatures describes every function of fns, under its name
// and its core:: name, but those that configurations cannot call (list,
// map, type), as `metadata functions -json` prints them.
func NewFunctionSignatures(fns map[string]function.Function) (*FunctionSignatures, error) {
	out := &FunctionSignatures{FormatVersion: "1.0", Signatures: map[string]*Function{}}
	for name, f := range fns {
		if slices.Contains(notListedFunctions, strings.TrimPrefix(name, "core::")) {
			continue
		}
		sig, err := NewFunction(strings.TrimPrefix(name, "core::"), f)
		if err != nil {
			return nil, fmt.Errorf("function %q: %w", name, err)
		}
		out.Signatures[name] = sig
	}
	return out, nil
}
