package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
)

// EphemeralVariable marks the value of a variable declared ephemeral, and
// refuses an ephemeral value (one from an ephemeral resource, variable,
// output or terraform.applying) for a variable that is not, reporting it
// at rng, as OpenTofu does.
func EphemeralVariable(v *config.Variable, val cty.Value, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if v.Ephemeral {
		return marks.MarkEphemeral(val), nil
	}
	if marks.ContainsEphemeral(val) {
		return cty.UnknownVal(v.ConcreteType), diag.Diagnostics{diag.At(rng, "Variable does not allow ephemeral value",
			fmt.Sprintf("The value used for the variable %q is ephemeral, but it is not configured to allow one.", v.Name))}
	}
	return val, nil
}

// EphemeralOutput checks output o's value against its ephemeral argument:
// a root module's output may not be ephemeral, and only an ephemeral
// output may hold an ephemeral value. It returns the value marked
// ephemeral when o is.
func EphemeralOutput(o *config.Output, root bool, val cty.Value) (cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	if o.Ephemeral && root {
		ds = ds.Append(diag.At(o.DeclRange, "Invalid output configuration",
			"Root modules are not allowed to have outputs defined as ephemeral."))
	}
	if o.Ephemeral {
		return marks.MarkEphemeral(val), ds
	}
	if marks.ContainsEphemeral(val) {
		rng := o.DeclRange
		if o.Expr != nil {
			rng = o.Expr.Range()
		}
		ds = ds.Append(diag.At(rng, "Output does not allow ephemeral value",
			"The value that was generated for the output is ephemeral, but it is not configured to allow one."))
		return cty.UnknownVal(val.Type()), ds
	}
	return val, ds
}

// EphemeralArguments refuses ephemeral values in the arguments of a
// managed resource or data source (config, decoded against blk), except
// in write-only attributes, reporting each at its attribute within body.
func EphemeralArguments(blk *provider.Block, config cty.Value, body hcl.Body, rng hcl.Range) diag.Diagnostics {
	if blk == nil || !marks.Any(config) {
		return nil
	}
	var ds diag.Diagnostics
	for _, p := range marks.EphemeralPaths(config) {
		if blk.WriteOnlyPath(p) {
			continue
		}
		at := rng
		if sb, ok := body.(*hclsyntax.Body); ok && len(p) > 0 {
			if step, ok := p[0].(cty.GetAttrStep); ok && sb.Attributes[step.Name] != nil {
				at = sb.Attributes[step.Name].Expr.Range()
			}
		}
		ds = ds.Append(diag.At(at, "Ephemeral value used in non-ephemeral context",
			fmt.Sprintf("Attribute %q is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.", diag.FormatRelativePath(p))))
	}
	return ds
}
