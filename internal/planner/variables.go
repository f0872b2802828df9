package planner

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// InputValue is a root variable value as the user gave it, with where it came from.
type InputValue struct {
	Value cty.Value
	// SourceType says where the value came from, for messages: "-var", "a .tfvars file", "an environment variable", "the configuration".
	SourceType string
}

// prepareVariables checks and converts the given values against the module's
// variable declarations, applying defaults. Values for undeclared variables
// are errors when given on the command line and warnings otherwise, as in OpenTofu.
func prepareVariables(m *config.Module, given map[string]InputValue) (map[string]cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := make(map[string]cty.Value, len(m.Variables))
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if _, ok := m.Variables[name]; ok {
			continue
		}
		if given[name].SourceType == "-var" {
			ds = ds.Append(diag.Errorf("Value for undeclared variable",
				"A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name))
		} else {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in %s. If you meant to use this value, add a \"variable\" block to the configuration.", name, given[name].SourceType)})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
		v := m.Variables[name]
		in, ok := given[name]
		val := in.Value
		if ok && val != cty.NilVal && v.Deprecated != "" {
			// As OpenTofu warns; not a module's deprecation, which -deprecation filters.
			d := diag.At(v.DeclRange, "Deprecated variable used from the root module",
				fmt.Sprintf("The root variable %q is deprecated with the following message: %s", name, v.Deprecated))
			d.Severity = diag.Warning
			ds = ds.Append(d)
		}
		if !ok || val == cty.NilVal {
			if v.Required() {
				ds = ds.Append(diag.At(v.DeclRange, "No value for required variable",
					fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", name)))
				out[name] = cty.UnknownVal(v.ConcreteType)
				continue
			}
			val = v.Default
		}
		if val.IsNull() && !v.Nullable {
			if v.Default != cty.NilVal && !v.Default.IsNull() {
				val = v.Default
			} else {
				ds = ds.Append(diag.At(v.DeclRange, "Required variable not set", fmt.Sprintf("The variable %q is required, but the given value is null.", name)))
			}
		}
		if v.TypeDefaults != nil && !val.IsNull() {
			val = v.TypeDefaults.Apply(val)
		}
		conv, err := convert.Convert(val, v.Type)
		if err != nil {
			ds = ds.Append(diag.At(v.DeclRange, "Invalid value for input variable",
				fmt.Sprintf("The given value is not suitable for var.%s declared at %s: %s.", name, v.DeclRange.String(), err)))
			out[name] = cty.UnknownVal(v.ConcreteType)
			continue
		}
		if path, exp, bad := config.ValueNumberOutOfRange(conv); bad {
			at := ""
			if len(path) > 0 {
				at = " (at " + diag.FormatPath(path) + ")"
			}
			ds = ds.Append(diag.At(v.DeclRange, "Invalid value for input variable",
				fmt.Sprintf("The value given for var.%s from %s holds a number out of range%s: rig accepts numbers from about 1e-1000 to 1e1000 in magnitude (or zero); this one is about 2^%d.", name, sourceOf(in), at, exp)))
			out[name] = cty.UnknownVal(v.ConcreteType)
			continue
		}
		out[name] = conv
	}
	return out, ds
}

// sourceOf names where a root variable's value came from, for messages.
func sourceOf(in InputValue) string {
	if in.SourceType == "" {
		return "the configuration"
	}
	return in.SourceType
}
