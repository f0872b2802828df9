package ui

import (
	"strings"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
)

// callSignature is the parameter list a diagnostic about a failed function
// call shows after "while calling NAME", as OpenTofu writes it: the
// parameters' names, the variadic one followed by "..."; "" when there is
// no call or its name is no function's.
func callSignature(call *diag.FunctionCall) string {
	if call == nil || call.Function == nil {
		return ""
	}
	var names []string
	for _, p := range call.Function.Params() {
		names = append(names, p.Name)
	}
	if vp := call.Function.VarParam(); vp != nil {
		names = append(names, vp.Name+"...")
	}
	return printable(strings.Join(names, ", "))
}

// functionCallToJSON is a diagnostic's "function_call", nil when it is
// about no function call.
func functionCallToJSON(call *diag.FunctionCall) *jsonformat.FunctionCall {
	if call == nil {
		return nil
	}
	out := &jsonformat.FunctionCall{CalledAs: call.CalledAs}
	if call.Function != nil {
		name := call.CalledAs
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		out.Signature = jsonformat.NewFunctionSignature(name, *call.Function)
	}
	return out
}
