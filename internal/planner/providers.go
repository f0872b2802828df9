package planner

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// ProviderRef is how the instances of a resource find their provider
// configuration instance: the configuration (block) itself, and, when that
// block has for_each, the expression that selects the instance — written
// in the resource's provider argument (evaluated per resource instance) or
// in the providers map of a module call on the way (evaluated per instance
// of that call, in the calling module).
type ProviderRef struct {
	// Config is the provider configuration without an instance key.
	Config addrs.AbsProviderConfig
	// KeyExpr selects the instance; nil when Config has no for_each.
	KeyExpr hcl.Expression
	// KeyModule is the module whose call's providers map holds KeyExpr;
	// meaningful when KeyExpr is set and KeyFromResource is false.
	KeyModule addrs.Module
	// KeyFromResource says KeyExpr is the resource's own.
	KeyFromResource bool
}

// ResolveProvider finds the provider configuration resource r of module m
// uses (see ResolveProviderConfig), with the expression that selects its
// instance.
func ResolveProvider(m *config.Module, r *config.Resource) ProviderRef {
	name, alias := m.ProviderLocalName(r)
	var ref ProviderRef
	if r.ProviderConfigRef != nil && r.ProviderConfigRef.KeyExpr != nil {
		ref.KeyExpr, ref.KeyFromResource = r.ProviderConfigRef.KeyExpr, true
	}
	ref.Config = resolveProviderConfig(m, name, alias, func(child *config.Module, pp config.PassedProvider) {
		if pp.InParent.KeyExpr != nil && ref.KeyExpr == nil {
			ref.KeyExpr, ref.KeyModule = pp.InParent.KeyExpr, child.Path
		}
	})
	return ref
}

// providerInstance evaluates which instance of ref.Config resource
// instance addr (with instance data inst) uses, and checks that the
// configuration declares it.
func (p *planner) providerInstance(ref ProviderRef, addr addrs.AbsResourceInstance, inst lang.InstanceData) (addrs.AbsProviderConfig, diag.Diagnostics) {
	return ProviderInstanceOf(p.eval, ref, addr, inst)
}

// ProviderInstanceOf evaluates which instance of ref.Config resource
// instance addr (with instance data inst) uses and checks that the
// configuration declares it. Plan and apply share it.
func ProviderInstanceOf(ev *eval.Evaluator, ref ProviderRef, addr addrs.AbsResourceInstance, inst lang.InstanceData) (addrs.AbsProviderConfig, diag.Diagnostics) {
	pc := ref.Config
	if ref.KeyExpr == nil {
		return pc, nil
	}
	var scope *lang.Scope
	if ref.KeyFromResource {
		scope = ev.Scope(addr.Module, inst)
	} else {
		// The call instance on the resource's path that passes the key,
		// evaluated in its caller with the call's count.index or each.
		mi := addr.Module
		for mi.Module().Depth() > ref.KeyModule.Depth() {
			mi, _ = mi.Parent()
		}
		parent, step := mi.Parent()
		exp, ds := ev.CallExpansion(parent, step.Name)
		if ds.HasErrors() {
			return pc, ds
		}
		scope = ev.Scope(parent, exp.InstanceData(step.Key))
	}
	key, ds := evalProviderKey(scope, ref.KeyExpr, addr.String())
	if ds.HasErrors() {
		return pc, ds
	}
	pc.Key = key
	_, ok, more := ev.ProviderInstance(pc)
	if ds = ds.Append(more); ds.HasErrors() {
		return pc, ds
	}
	if !ok {
		return pc, ds.Append(providerInstanceMissing(addr, addrs.NotDeposed, pc))
	}
	return pc, ds
}

// evalProviderKey evaluates a provider instance key expression: a known,
// non-null, non-sensitive string (numbers and bools are converted), as
// OpenTofu requires.
func evalProviderKey(scope *lang.Scope, expr hcl.Expression, source string) (addrs.InstanceKey, diag.Diagnostics) {
	v, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return addrs.NoKey, ds
	}
	invalid := func(detail string) (addrs.InstanceKey, diag.Diagnostics) {
		return addrs.NoKey, ds.Append(diag.At(expr.Range(), "Invalid provider instance key", detail))
	}
	switch {
	case v.ContainsMarked():
		return invalid("A provider instance key must not be derived from a sensitive value.")
	case v.IsNull():
		return invalid("A provider instance key must not be null.")
	case !v.IsKnown():
		return invalid(fmt.Sprintf("The provider instance key for %s depends on values that cannot be determined until apply, and so rig cannot select a provider instance to create a plan for this resource instance.", source))
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return invalid(fmt.Sprintf("The given instance key is unsuitable: %s.", err))
	}
	return addrs.StringKey(s.AsString()), ds
}

// checkProviderInstance reports, for an object recorded under provider
// configuration instance pc, when the configuration no longer declares
// that instance (an element removed from the provider's for_each, or
// for_each added to a configuration that had none). A configuration whose
// block is gone altogether is reported when it is configured.
func checkProviderInstance(ev *eval.Evaluator, addr addrs.AbsResourceInstance, dk addrs.DeposedKey, pc addrs.AbsProviderConfig) diag.Diagnostics {
	if ev.ProviderBlock(pc) == nil {
		return nil
	}
	_, ok, ds := ev.ProviderInstance(pc)
	if ds.HasErrors() || ok {
		return ds
	}
	return ds.Append(providerInstanceMissing(addr, dk, pc))
}

// providerInstanceMissing is OpenTofu's "Provider instance not present"
// error for the object of addr (deposed dk) recorded under pc.
func providerInstanceMissing(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, pc addrs.AbsProviderConfig) diag.Diagnostic {
	cfg := pc.Config()
	var detail string
	switch {
	case dk == addrs.NotDeposed && !pc.Key.IsNone():
		detail = fmt.Sprintf("To work with %s its original provider instance at %s is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy %s, after which you can remove the provider configuration again.\n\nThis is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection.",
			addr, pc, addr)
	case dk == addrs.NotDeposed:
		detail = fmt.Sprintf("To work with %s its original provider instance at %s is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of %s that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for %s and ensure that %s has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key %s.",
			addr, pc, addr.ContainingResource(), cfg, addr, addr.Resource.Key)
	case !pc.Key.IsNone():
		detail = fmt.Sprintf("To work with %s's deposed object %s its original provider instance at %s is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy this deposed object for %s, after which you can remove the provider configuration again.",
			addr, dk, pc, addr)
	default:
		detail = fmt.Sprintf("To work with %s's deposed object %s its original provider instance at %s is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing deposed objects of %s that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for %s and ensure that all deposed instances of %s have been destroyed before using for_each with this provider.",
			addr, dk, pc, addr, cfg, addr)
	}
	return diag.Diagnostic{Severity: diag.Error, Summary: "Provider instance not present", Detail: detail, Address: addr}
}

// reportedKey identifies a diagnostic for reportOnce.
type reportedKey struct {
	summary, detail, address string
	subject                  hcl.Range
}

// reportOnce drops the diagnostics this plan already reported through it:
// a problem of a provider configuration's for_each, which every instance
// that uses the configuration meets, is reported once.
func (p *planner) reportOnce(ds diag.Diagnostics) diag.Diagnostics {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reported == nil {
		p.reported = map[reportedKey]bool{}
	}
	var out diag.Diagnostics
	for _, d := range ds {
		k := reportedKey{summary: d.Summary, detail: d.Detail, address: d.AddressText()}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		if !p.reported[k] {
			p.reported[k] = true
			out = append(out, d)
		}
	}
	return out
}

// instanceProvider returns the configured provider instance for resource
// instance addr of r (instance data inst), with its address; a nil
// provider when it has none, the problem reported (once, see reportOnce).
func (p *planner) instanceProvider(ref ProviderRef, addr addrs.AbsResourceInstance, inst lang.InstanceData) (addrs.AbsProviderConfig, provider.Interface, diag.Diagnostics) {
	pc, ds := p.providerInstance(ref, addr, inst)
	if ds.HasErrors() {
		return pc, nil, p.reportOnce(ds)
	}
	prov, more := p.configuredProvider(pc)
	return pc, prov, ds.Append(more)
}
