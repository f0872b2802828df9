package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/diag"
)

// checkProviderInstances checks, in every module of the tree, the references
// to provider configurations that use for_each: a reference to such a
// configuration needs an instance key, a key needs such a configuration, a
// module call's providers map takes keys on its right side only. It warns
// where a resource or module call repeats over the same for_each expression
// as its provider configuration, which makes removing an element impossible
// (the provider instance must outlive the objects it manages).
func checkProviderInstances(root *Module) diag.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range root.AllModules() {
		diags = append(diags, m.checkProviderInstances()...)
	}
	return diag.FromHCL(diags)
}

func (m *Module) checkProviderInstances() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		call := m.ModuleCalls[name]
		for _, pp := range call.Providers {
			if pp.InChild.KeyExpr != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid module provider configuration",
					Detail:   "Instance keys are not allowed on the left side of a provider configuration assignment.",
					Subject:  pp.InChild.KeyExpr.Range().Ptr(),
				})
			}
			pc, hasConfig := m.ProviderConfigs[pp.InParent.String()]
			diags = append(diags, pp.InParent.instanceValidation("module", pc, hasConfig)...)
			if pp.InParent.KeyExpr != nil && hasConfig {
				diags = append(diags, forEachMatchesWarning("module", m.Path.Child(call.Name).String(), call.ForEach, pc.ForEach)...)
			}
		}
	}
	for _, r := range m.Resources() {
		ref := r.ProviderConfigRef
		if ref == nil {
			continue
		}
		pc, hasConfig := m.ProviderConfigs[ref.String()]
		diags = append(diags, ref.instanceValidation("resource", pc, hasConfig)...)
		if ref.KeyExpr != nil && hasConfig && r.Managed != nil {
			addr := r.Addr.String()
			if !m.Path.IsRoot() {
				addr = m.Path.String() + "." + addr
			}
			diags = append(diags, forEachMatchesWarning("resource", addr, r.ForEach, pc.ForEach)...)
		}
	}
	return diags
}

// instanceValidation checks that r has an instance key exactly when the
// configuration it names (pc, declared when hasConfig) uses for_each.
func (r *ProviderConfigRef) instanceValidation(blockType string, pc *Provider, hasConfig bool) hcl.Diagnostics {
	summary := fmt.Sprintf("Invalid %s provider configuration", blockType)
	instanced := hasConfig && pc.ForEach != nil
	switch {
	case r.KeyExpr != nil && r.Alias == "":
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary,
			Detail:  "An instance key can be specified only for a provider configuration which has an alias and uses for_each.",
			Subject: r.KeyExpr.Range().Ptr()}}
	case r.KeyExpr != nil && !hasConfig:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary,
			Detail:  fmt.Sprintf("This module doesn't declare a provider %q block with alias = %q, which is required for use with for_each.", r.Name, r.Alias),
			Subject: r.NameRange.Ptr()}}
	case r.KeyExpr != nil && !instanced:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary,
			Detail:  "An instance key can be specified only for a provider configuration that uses for_each.",
			Subject: r.KeyExpr.Range().Ptr()}}
	case r.KeyExpr == nil && instanced:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary,
			Detail:  "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.",
			Subject: r.NameRange.Ptr()}}
	}
	return nil
}

// forEachMatchesWarning warns when a resource's or module call's for_each
// (source) is the same expression as its provider configuration's
// (instance), both referring to something.
func forEachMatchesWarning(blockType, target string, source, instance hcl.Expression) hcl.Diagnostics {
	if source == nil || instance == nil || len(source.Variables()) == 0 || len(instance.Variables()) == 0 {
		return nil
	}
	if !sameExpression(source, instance) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Provider configuration for_each matches " + blockType,
		Detail: fmt.Sprintf("This provider configuration uses the same for_each expression as a %s, which means that subsequent removal of elements from this collection would cause a planning error.\n\n"+
			"rig relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. "+
			"For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration.\n\n"+
			"To destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    rig apply -destroy -target=%s", blockType, target),
		Subject: source.Range().Ptr(),
	}}
}

// sameExpression reports whether two expressions are written the same way,
// as far as it can tell: parentheses aside, the same references, literals,
// calls and operators in the same shape. Other kinds compare unequal.
func sameExpression(a, b hcl.Expression) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if p, ok := a.(*hclsyntax.ParenthesesExpr); ok {
		return sameExpression(p.Expression, b)
	}
	if p, ok := b.(*hclsyntax.ParenthesesExpr); ok {
		return sameExpression(a, p.Expression)
	}
	if k, ok := a.(*hclsyntax.ObjectConsKeyExpr); ok {
		return sameExpression(k.Wrapped, b)
	}
	if k, ok := b.(*hclsyntax.ObjectConsKeyExpr); ok {
		return sameExpression(a, k.Wrapped)
	}
	all := func(as, bs []hclsyntax.Expression) bool {
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if !sameExpression(as[i], bs[i]) {
				return false
			}
		}
		return true
	}
	switch x := a.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		y, ok := b.(*hclsyntax.ScopeTraversalExpr)
		return ok && sameTraversal(x.Traversal, y.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		y, ok := b.(*hclsyntax.RelativeTraversalExpr)
		return ok && sameTraversal(x.Traversal, y.Traversal) && sameExpression(x.Source, y.Source)
	case *hclsyntax.LiteralValueExpr:
		y, ok := b.(*hclsyntax.LiteralValueExpr)
		return ok && x.Val.Equals(y.Val).True()
	case *hclsyntax.FunctionCallExpr:
		y, ok := b.(*hclsyntax.FunctionCallExpr)
		return ok && x.Name == y.Name && all(x.Args, y.Args)
	case *hclsyntax.ConditionalExpr:
		y, ok := b.(*hclsyntax.ConditionalExpr)
		return ok && sameExpression(x.Condition, y.Condition) && sameExpression(x.TrueResult, y.TrueResult) && sameExpression(x.FalseResult, y.FalseResult)
	case *hclsyntax.IndexExpr:
		y, ok := b.(*hclsyntax.IndexExpr)
		return ok && sameExpression(x.Collection, y.Collection) && sameExpression(x.Key, y.Key)
	case *hclsyntax.TupleConsExpr:
		y, ok := b.(*hclsyntax.TupleConsExpr)
		return ok && all(x.Exprs, y.Exprs)
	case *hclsyntax.ObjectConsExpr:
		y, ok := b.(*hclsyntax.ObjectConsExpr)
		if !ok || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if !sameExpression(x.Items[i].KeyExpr, y.Items[i].KeyExpr) || !sameExpression(x.Items[i].ValueExpr, y.Items[i].ValueExpr) {
				return false
			}
		}
		return true
	case *hclsyntax.ForExpr:
		y, ok := b.(*hclsyntax.ForExpr)
		return ok && x.KeyVar == y.KeyVar && x.ValVar == y.ValVar && x.Group == y.Group &&
			sameExpression(x.CollExpr, y.CollExpr) && sameOptional(x.KeyExpr, y.KeyExpr) &&
			sameExpression(x.ValExpr, y.ValExpr) && sameOptional(x.CondExpr, y.CondExpr)
	case *hclsyntax.BinaryOpExpr:
		y, ok := b.(*hclsyntax.BinaryOpExpr)
		return ok && x.Op == y.Op && sameExpression(x.LHS, y.LHS) && sameExpression(x.RHS, y.RHS)
	case *hclsyntax.UnaryOpExpr:
		y, ok := b.(*hclsyntax.UnaryOpExpr)
		return ok && x.Op == y.Op && sameExpression(x.Val, y.Val)
	case *hclsyntax.TemplateExpr:
		y, ok := b.(*hclsyntax.TemplateExpr)
		return ok && all(x.Parts, y.Parts)
	case *hclsyntax.TemplateWrapExpr:
		y, ok := b.(*hclsyntax.TemplateWrapExpr)
		return ok && sameExpression(x.Wrapped, y.Wrapped)
	}
	return false
}

// sameOptional is sameExpression for parts of a for expression that may be
// absent (its key and condition).
func sameOptional(a, b hclsyntax.Expression) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameExpression(a, b)
}

// sameTraversal reports whether two traversals name the same thing:
// the same steps, with the same attribute names and index keys.
func sameTraversal(a, b hcl.Traversal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case hcl.TraverseRoot:
			y, ok := b[i].(hcl.TraverseRoot)
			if !ok || x.Name != y.Name {
				return false
			}
		case hcl.TraverseAttr:
			y, ok := b[i].(hcl.TraverseAttr)
			if !ok || x.Name != y.Name {
				return false
			}
		case hcl.TraverseIndex:
			y, ok := b[i].(hcl.TraverseIndex)
			if !ok || !x.Key.RawEquals(y.Key) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
