package command

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// functionSignatures is the JSON `metadata functions -json` prints, in the
// format OpenTofu and Terraform print it (format_version 1.0).
type functionSignatures struct {
	FormatVersion string                        `json:"format_version"`
	Signatures    map[string]*functionSignature `json:"function_signatures,omitempty"`
}

// functionSignature is one function's signature: its return type when
// every argument has its parameter's type, its positional parameters and
// its variadic one.
type functionSignature struct {
	Description       string               `json:"description,omitempty"`
	ReturnType        cty.Type             `json:"return_type"`
	Parameters        []*functionParameter `json:"parameters,omitempty"`
	VariadicParameter *functionParameter   `json:"variadic_parameter,omitempty"`
}

type functionParameter struct {
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	IsNullable  bool     `json:"is_nullable,omitempty"`
	Type        cty.Type `json:"type"`
}

// notListedFunctions are in the function table but not for configurations:
// list and map only say they were removed, type works in the console only.
var notListedFunctions = []string{"list", "map", "type"}

func runMetadataFunctions(m *Meta, args []string) int {
	fs := m.flagSet("metadata functions")
	jsonOut := fs.Bool("json", false, "Print the signatures as JSON; required.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no arguments.")
	}
	if !*jsonOut {
		return m.argsError(fs, "Invalid arguments", "The `rig metadata functions` command requires the `-json` flag.")
	}
	b, ds := marshalFunctions(lang.Functions("."))
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprintln(m.Out, string(b))
	return 0
}

// marshalFunctions describes every function of fns but those
// notListedFunctions names, under its name and its core:: name.
func marshalFunctions(fns map[string]function.Function) ([]byte, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := functionSignatures{FormatVersion: "1.0", Signatures: map[string]*functionSignature{}}
	for name, f := range fns {
		if slices.Contains(notListedFunctions, strings.TrimPrefix(name, "core::")) {
			continue
		}
		sig, err := signatureOf(strings.TrimPrefix(name, "core::"), f)
		if err != nil {
			ds = ds.Append(diag.Errorf(fmt.Sprintf("Failed to serialize function %q", name), "%s", err))
			continue
		}
		out.Signatures[name] = sig
	}
	if ds.HasErrors() {
		return nil, ds
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to serialize functions", "%s", err))
	}
	return b, ds
}

// signatureOf describes f. can and try take expressions, not values: their
// parameters are of any type, and their results a bool and any type;
// convert's second parameter is a type constraint, shown as any type, as
// Terraform shows it.
func signatureOf(name string, f function.Function) (*functionSignature, error) {
	sig := &functionSignature{Description: f.Description()}
	for _, p := range f.Params() {
		sig.Parameters = append(sig.Parameters, parameterOf(p))
	}
	if vp := f.VarParam(); vp != nil {
		sig.VariadicParameter = parameterOf(*vp)
	}
	switch name {
	case "can":
		sig.ReturnType = cty.Bool
		sig.Parameters[0].Type = cty.DynamicPseudoType
		return sig, nil
	case "try":
		sig.ReturnType = cty.DynamicPseudoType
		sig.VariadicParameter.Type = cty.DynamicPseudoType
		return sig, nil
	case "convert":
		sig.ReturnType = cty.DynamicPseudoType
		sig.Parameters[1].Type = cty.DynamicPseudoType
		return sig, nil
	}
	var types []cty.Type
	for _, p := range f.Params() {
		types = append(types, p.Type)
	}
	if vp := f.VarParam(); vp != nil {
		types = append(types, vp.Type)
	}
	ret, err := f.ReturnType(types)
	if err != nil {
		return nil, err
	}
	sig.ReturnType = ret
	return sig, nil
}

func parameterOf(p function.Parameter) *functionParameter {
	return &functionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNull, Type: p.Type}
}
