package eval

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// EvalOutput evaluates output o's value in scope and converts it to the
// output's type constraint (Terraform 1.15's type argument), applying its
// optional attributes' defaults first. A value that does not convert is
// "Invalid output value", as in Terraform, and the result is then an
// unknown value of the type. Marks (sensitive values) are kept.
func EvalOutput(scope *lang.Scope, o *config.Output) (cty.Value, diag.Diagnostics) {
	ty := o.Type
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	val, ds := scope.EvalExpr(o.Expr, cty.DynamicPseudoType)
	if ds.HasErrors() || ty == cty.DynamicPseudoType {
		return val, ds
	}
	if o.TypeDefaults != nil && !val.IsNull() {
		val = o.TypeDefaults.Apply(val)
	}
	conv, err := convert.Convert(val, ty)
	if err != nil {
		return cty.UnknownVal(ty), ds.Append(diag.At(o.Expr.Range(), "Invalid output value",
			fmt.Sprintf("The value expression does not match this output value's type constraint: %s.", diag.FormatError(err))))
	}
	return conv, ds
}
