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
	// File is the variables file the value was read from (a .tfvars
	// file, -var-file), as it was named; "" for any other source.
	File string
}

// Source types of root variable values whose messages differ.
const (
	SourceCLI   = "-var"
	SourceEnv   = "an environment variable"
	SourceInput = "input"
)

// maxUndeclaredWarnings is how many values for undeclared variables found
// in files are warned about one by one; the others are counted in one
// more warning, as OpenTofu does.
const maxUndeclaredWarnings = 2

// prepareVariables checks and converts the given values against the module's
// variable declarations, applying defaults. Values for undeclared variables
// are reported as OpenTofu reports them (undeclaredVariables).
func prepareVariables(m *config.Module, given map[string]InputValue) (map[string]cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	out := make(map[string]cty.Value, len(m.Variables))
	ds = ds.Append(undeclaredVariables(m, given))
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
			detail := fmt.Sprintf("The given value is not suitable for var.%s declared at %s: %s.", name, v.DeclRange.String(), err)
			if set := setUsing(name, in.SourceType); set != "" {
				detail = fmt.Sprintf("Unsuitable value for var.%s %s: %s.", name, set, err)
			}
			ds = ds.Append(diag.At(v.DeclRange, "Invalid value for input variable", detail))
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

// undeclaredVariables reports the values given for variables m does not
// declare, as OpenTofu does: one from the command line is an error; one
// from a variables file a warning naming the file (the first
// maxUndeclaredWarnings of them, then their count); one from the
// environment is ignored, for TF_VAR_ variables are often set for many
// configurations at once.
func undeclaredVariables(m *config.Module, given map[string]InputValue) diag.Diagnostics {
	var ds diag.Diagnostics
	inFiles := 0
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if _, ok := m.Variables[name]; ok {
			continue
		}
		switch in := given[name]; {
		case in.SourceType == SourceEnv:
		case in.SourceType == SourceCLI:
			ds = ds.Append(diag.Errorf("Value for undeclared variable",
				"A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name))
		case in.File != "":
			inFiles++
			if inFiles <= maxUndeclaredWarnings {
				ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Value for undeclared variable",
					Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.", name, in.File)})
			}
		default:
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in %s. If you meant to use this value, add a \"variable\" block to the configuration.", name, in.SourceType)})
		}
	}
	if inFiles > maxUndeclaredWarnings {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Values for undeclared variables",
			Detail: fmt.Sprintf("In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", inFiles-maxUndeclaredWarnings)})
	}
	return ds
}

// setUsing says how a value that did not come from a file was set, for
// the message about a value of the wrong type; "" for a value from a
// file or the configuration.
func setUsing(name, source string) string {
	switch source {
	case SourceCLI:
		return fmt.Sprintf("set using -var=\"%s=...\"", name)
	case SourceEnv:
		return fmt.Sprintf("set using the TF_VAR_%s environment variable", name)
	case SourceInput:
		return "set using an interactive prompt"
	}
	return ""
}

// sourceOf names where a root variable's value came from, for messages.
func sourceOf(in InputValue) string {
	if in.SourceType == "" {
		return "the configuration"
	}
	return in.SourceType
}
