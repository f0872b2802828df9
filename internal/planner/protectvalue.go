package planner

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

const invalidPreventDestroy = "Invalid value for prevent_destroy"

// preventDestroyValue evaluates r's prevent_destroy expression in addr's
// module instance, without instance data, converted to a bool. A value
// that could never decide a deletion — sensitive, or not a bool — is an
// error; an unknown or null value is returned as it is, for the caller to
// judge. r must have a prevent_destroy argument.
func (p *planner) preventDestroyValue(r *config.Resource, addr addrs.AbsResourceInstance) (cty.Value, diag.Diagnostics) {
	expr := r.Managed.PreventDestroy
	v, ds := p.eval.Scope(addr.Module, lang.InstanceData{}).EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	if v.HasMark(lang.Sensitive) {
		return cty.NilVal, ds.Append(diag.At(expr.Range(), invalidPreventDestroy, fmt.Sprintf("Resource instance %s has a sensitive value for its prevent_destroy argument, which is invalid because it would cause rig to disclose the sensitive value by whether deletion is blocked.\n\nIf you know this value is not sensitive in practice, consider using the nonsensitive function to declare that.", addr)))
	}
	v, _ = v.UnmarkDeep()
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return cty.NilVal, ds.Append(diag.At(expr.Range(), invalidPreventDestroy, fmt.Sprintf("Resource instance %s has an invalid value for its prevent_destroy argument: %s.", addr, diag.FormatError(err))))
	}
	return b, ds
}

// checkPreventDestroyValue reports a prevent_destroy value of r that could
// never decide a deletion of addr's object (preventDestroyValue), for a
// plan that does not destroy it: OpenTofu 1.12 checks the argument on every
// plan of a configured instance, so that a wrong value shows before the
// day a deletion needs it.
func (p *planner) checkPreventDestroyValue(r *config.Resource, addr addrs.AbsResourceInstance) diag.Diagnostics {
	if p.opts.IgnorePreventDestroy || r == nil || r.Managed == nil || r.Managed.PreventDestroy == nil {
		return nil
	}
	_, ds := p.preventDestroyValue(r, addr)
	return ds
}
