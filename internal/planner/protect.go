package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// protectionAt returns the prevent_destroy record to keep with the object
// of addr (prior is its recorded object, nil when none). When rig.hcl asks
// for records (Options.RecordPreventDestroy), the configuration decides:
// where r's prevent_destroy was set ("main.tf:12") when it is true in
// addr's module instance, else "" (the record is lifted). Otherwise the
// recorded one is kept, which only `rig state unprotect` or a removed
// block lifts. An invalid value records nothing: the plan that would
// destroy the object reports it (preventDestroy).
func (p *planner) protectionAt(r *config.Resource, addr addrs.AbsResourceInstance, prior *state.Object) string {
	if !p.opts.RecordPreventDestroy {
		if prior != nil {
			return prior.PreventDestroy
		}
		return ""
	}
	if r == nil || r.Managed == nil || r.Managed.PreventDestroy == nil {
		return ""
	}
	v, ds := p.eval.Scope(addr.Module, lang.InstanceData{}).EvalExpr(r.Managed.PreventDestroy, cty.DynamicPseudoType)
	if ds.HasErrors() || v.HasMark(lang.Sensitive) {
		return ""
	}
	v, _ = v.UnmarkDeep()
	b, err := convert.Convert(v, cty.Bool)
	if err != nil || !b.IsKnown() || b.IsNull() || b.False() {
		return ""
	}
	return plan.ProtectionSource(r.Managed.PreventDestroyRange.Filename, r.Managed.PreventDestroyRange.Start.Line)
}

// recordedProtection refuses the deletion of obj (at addr, current) that
// the state records as protected, unless prevent_destroy is ignored (the
// cleanup of a test). It returns where the protection was set and the
// error, which the planner keeps aside (p.refused) so that the rest of
// the plan is made and shown with the refused deletions marked.
func (p *planner) recordedProtection(addr addrs.AbsResourceInstance, obj *state.Object, configured bool) (string, *diag.Diagnostic) {
	if p.opts.IgnorePreventDestroy || obj == nil || obj.PreventDestroy == "" {
		return "", nil
	}
	why := "its resource block is no longer in the configuration"
	switch {
	case p.opts.Mode == plan.DestroyMode:
		why = "this is a destroy plan"
	case configured:
		why = "its instance is no longer declared (count, for_each or its module's instances changed)"
	}
	res := addr.ContainingResource()
	from := res.String()
	if len(res.Module) > 0 {
		// A removed block names a resource without module instance keys.
		from = recordedAddr(res.InConfig()).String()
	}
	d := diag.Diagnostic{Severity: diag.Error, Summary: plan.ProtectedSummary, Address: addr,
		Detail: fmt.Sprintf("Resource instance %s is protected: lifecycle.prevent_destroy was set at %s when it was last applied, and the state records it, but the plan calls for it to be destroyed (%s).\n\n"+
			"To keep the object but stop managing it, add a removed block:\n"+
			"    removed {\n      from = %s\n      lifecycle {\n        destroy = false\n      }\n    }\n"+
			"To allow its destruction, lift the protection first:\n    rig state unprotect '%s'",
			addr, obj.PreventDestroy, why, from, addr)}
	return obj.PreventDestroy, &d
}

// refusedDiagnostics returns the errors of the deletions the state's
// records refused, sorted by address so that a plan does not depend on
// the order its objects were planned in.
func (p *planner) refusedDiagnostics() diag.Diagnostics {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.refused)
	slices.SortStableFunc(out, func(a, b diag.Diagnostic) int { return strings.Compare(a.AddressText(), b.AddressText()) })
	return out
}

// onlyProtectionErrors reports whether every error of ds refuses to
// destroy an object a prevent_destroy protects.
func onlyProtectionErrors(ds diag.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity == diag.Error && d.Summary != plan.ProtectedSummary {
			return false
		}
	}
	return true
}
