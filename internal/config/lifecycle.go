package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

// ManagedLifecycle is the lifecycle block of a managed resource (the zero
// value when there is no lifecycle block).
type ManagedLifecycle struct {
	CreateBeforeDestroy, CreateBeforeDestroySet bool
	// ActionTriggers are the action_trigger blocks (Terraform 1.14), in
	// order; read and checked, not run.
	ActionTriggers []*ActionTrigger
	// PreventDestroy is the prevent_destroy expression, nil when absent. As
	// in OpenTofu 1.12 it may refer to the module's variables, local values
	// and other objects (not count.index or each, checked by
	// lang.CheckReferences); it is evaluated in the module instance when a
	// plan would destroy an object of the resource.
	PreventDestroy hcl.Expression
	// Destroy is lifecycle.destroy (OpenTofu 1.12, Terraform 1.16), a
	// literal; DestroySet says whether it is written. destroy = false makes
	// a plan forget the resource's objects (drop them from state, leave
	// them in place) where it would destroy them.
	Destroy, DestroySet bool
	// IgnoreChanges are relative traversals: attr, attr["k"], attr[0], nested.attr.
	IgnoreChanges []hcl.Traversal
	// IgnoreAllChanges is ignore_changes = all.
	IgnoreAllChanges bool
	// ReplaceTriggeredBy are the list's expressions, each a reference to a
	// managed resource, instance or attribute (checked by lang.CheckReferences).
	ReplaceTriggeredBy []hcl.Expression
	// CreateBeforeDestroyRange, PreventDestroyRange and DestroyRange are
	// where the settings are written; zero when not set.
	CreateBeforeDestroyRange hcl.Range
	PreventDestroyRange      hcl.Range
	DestroyRange             hcl.Range
}

// SkipsDestroy reports whether lifecycle.destroy = false is set: the
// objects are forgotten rather than destroyed. lc may be nil.
func (lc *ManagedLifecycle) SkipsDestroy() bool { return lc != nil && lc.DestroySet && !lc.Destroy }

var lifecycleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"},
		{Name: "prevent_destroy"},
		{Name: "destroy"},
		{Name: "ignore_changes"},
		{Name: "replace_triggered_by"},
		{Name: "enabled"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
		{Type: "action_trigger"},
	},
}

// managedOnlyLifecycleArguments are the lifecycle arguments a data block
// may not set (enabled is the one both may).
var managedOnlyLifecycleArguments = []string{"create_before_destroy", "prevent_destroy", "destroy", "ignore_changes", "replace_triggered_by"}

// decodeLifecycle decodes a resource's or data source's lifecycle block
// into r; enabledName receives the range of its enabled argument's name.
func (r *Resource) decodeLifecycle(block *hcl.Block, override bool, enabledName *hcl.Range) hcl.Diagnostics {
	content, diags := block.Body.Content(lifecycleBlockSchema)

	if attr, ok := content.Attributes["enabled"]; ok {
		r.Enabled = attr.Expr
		*enabledName = attr.NameRange
	}
	if r.Managed == nil {
		for _, name := range managedOnlyLifecycleArguments {
			attr, ok := content.Attributes[name]
			if ok && r.Addr.Mode == addrs.Ephemeral {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid lifecycle configuration for ephemeral resource",
					Detail:   fmt.Sprintf("An ephemeral resource cannot set the lifecycle argument %q: it belongs in \"resource\" blocks only.", name),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			if ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid data resource lifecycle argument",
					Detail:   fmt.Sprintf("The lifecycle argument %q is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", name),
					Subject:  attr.NameRange.Ptr(),
				})
			}
		}
	} else {
		lc := r.Managed
		if attr, ok := content.Attributes["create_before_destroy"]; ok {
			diags = append(diags, decodeLiteralBool(attr.Expr, &lc.CreateBeforeDestroy)...)
			lc.CreateBeforeDestroySet = true
			lc.CreateBeforeDestroyRange = attr.Range
		}
		if attr, ok := content.Attributes["prevent_destroy"]; ok {
			lc.PreventDestroy = attr.Expr
			lc.PreventDestroyRange = attr.Range
		}
		if attr, ok := content.Attributes["destroy"]; ok {
			diags = append(diags, decodeDestroyArgument(attr.Expr, &lc.Destroy)...)
			lc.DestroySet = true
			lc.DestroyRange = attr.Range
		}
		if attr, ok := content.Attributes["ignore_changes"]; ok {
			diags = append(diags, lc.decodeIgnoreChanges(attr)...)
		}
		if attr, ok := content.Attributes["replace_triggered_by"]; ok {
			exprs, rtbDiags := decodeReplaceTriggeredBy(attr.Expr)
			diags = append(diags, rtbDiags...)
			lc.ReplaceTriggeredBy = append(lc.ReplaceTriggeredBy, exprs...)
		}
	}

	for _, b := range content.Blocks {
		if b.Type == "action_trigger" {
			diags = append(diags, r.decodeActionTrigger(b)...)
			continue
		}
		if override {
			diags = append(diags, overrideCheckRuleDiag(b))
			continue
		}
		cr, crDiags := decodeCheckRuleBlock(b)
		diags = append(diags, crDiags...)
		diags = append(diags, conditionSelfReferences(cr, b.Type, r.Addr)...)
		if b.Type == "precondition" {
			r.Preconditions = append(r.Preconditions, cr)
		} else {
			r.Postconditions = append(r.Postconditions, cr)
		}
	}
	return diags
}

// decodeDestroyArgument decodes lifecycle.destroy: a boolean constant, as
// OpenTofu requires ("Invalid lifecycle destroy expression"); a reference
// or function call gets hcl's own diagnostic at the expression.
func decodeDestroyArgument(expr hcl.Expression, into *bool) hcl.Diagnostics {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	if v.Type() != cty.Bool || v.IsNull() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid lifecycle destroy expression",
			Detail:   "The lifecycle destroy expression must be a boolean constant.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	*into = v.True()
	return nil
}

// decodeLiteralBool decodes expr with no evaluation context, so references
// and function calls produce hcl's own diagnostics ("Variables not allowed",
// "Function calls not allowed") at expr's range. Unlike gohcl, it does not
// add a second "Unsuitable value type" error about the resulting unknown.
func decodeLiteralBool(expr hcl.Expression, into *bool) hcl.Diagnostics {
	if _, diags := expr.Value(nil); diags.HasErrors() {
		return diags
	}
	var v bool
	diags := gohcl.DecodeExpression(expr, nil, &v)
	if !diags.HasErrors() {
		*into = v
	}
	return diags
}

func (lc *ManagedLifecycle) decodeIgnoreChanges(attr *hcl.Attribute) hcl.Diagnostics {
	// Either the keyword "all" or a list of relative traversals. The legacy
	// quoted forms ("attr" and "*") are recognised for compatibility.
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		lc.IgnoreAllChanges = true
		return nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	var starRange hcl.Range
	for _, expr := range exprs {
		if isIgnoreChangesStar(expr) {
			lc.IgnoreAllChanges = true
			starRange = expr.Range()
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid ignore_changes wildcard",
				Detail:   "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
				Subject:  attr.Expr.Range().Ptr(),
			})
			continue
		}
		expr, shimDiags := shimTraversalInString(expr, false)
		diags = append(diags, shimDiags...)
		trav, travDiags := hcl.RelTraversalForExpr(expr)
		diags = append(diags, travDiags...)
		if len(trav) != 0 {
			lc.IgnoreChanges = append(lc.IgnoreChanges, trav)
		}
	}
	if lc.IgnoreAllChanges && len(lc.IgnoreChanges) != 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes ruleset",
			Detail:   "Cannot mix wildcard string \"*\" with non-wildcard references.",
			Subject:  starRange.Ptr(),
			Context:  attr.Expr.Range().Ptr(),
		})
	}
	return diags
}

func isIgnoreChangesStar(expr hcl.Expression) bool {
	v, diags := expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return false
	}
	return v.AsString() == "*"
}

// decodeReplaceTriggeredBy returns the list's expressions; JSON strings are
// re-parsed as native expressions so that later analysis sees references.
func decodeReplaceTriggeredBy(expr hcl.Expression) ([]hcl.Expression, hcl.Diagnostics) {
	isJSON := hcljson.IsJSONExpression(expr)
	exprs, diags := hcl.ExprList(expr)
	if !isJSON {
		return exprs, diags
	}
	for i, e := range exprs {
		native, nDiags := jsonExprAsNative(e)
		diags = append(diags, nDiags...)
		exprs[i] = native
	}
	return exprs, diags
}

// jsonExprAsNative re-parses a JSON string expression as a native
// expression: "aws_x.y" and "${aws_x.y[0]}" both become aws_x.y references.
func jsonExprAsNative(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return expr, diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return expr, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid expression",
			Detail:   "A string containing a reference is required here.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	rng := expr.Range()
	start := rng.Start
	start.Column++ // skip the opening quote
	start.Byte++
	tmpl, tDiags := hclsyntax.ParseTemplate([]byte(v.AsString()), rng.Filename, start)
	if tDiags.HasErrors() {
		return expr, tDiags
	}
	if wrap, ok := tmpl.(*hclsyntax.TemplateWrapExpr); ok {
		return wrap.Wrapped, nil
	}
	native, nDiags := hclsyntax.ParseExpression([]byte(v.AsString()), rng.Filename, start)
	return native, nDiags
}
