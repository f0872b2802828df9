package config

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// exprIsNativeQuotedString reports whether expr is a plain quoted string in
// the native syntax (no interpolations).
func exprIsNativeQuotedString(expr hcl.Expression) bool {
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) != 1 {
		return false
	}
	_, ok = tmpl.Parts[0].(*hclsyntax.LiteralValueExpr)
	return ok
}

// shimTraversalInString accepts the pre-0.12 form of a reference or keyword
// written in quotes: it returns the parsed traversal with a deprecation
// warning. Any other expression is returned unchanged.
func shimTraversalInString(expr hcl.Expression, wantKeyword bool) (hcl.Expression, hcl.Diagnostics) {
	if ocke, ok := expr.(*hclsyntax.ObjectConsKeyExpr); ok {
		expr = ocke.Wrapped
	}
	if !exprIsNativeQuotedString(expr) {
		return expr, nil
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() {
		return expr, nil
	}
	rng := expr.Range()
	start := rng.Start
	start.Column++
	start.Byte++
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(v.AsString()), rng.Filename, start)
	if wantKeyword {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Quoted keywords are deprecated",
			Detail:   "In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.",
			Subject:  rng.Ptr(),
		})
	} else {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Quoted references are deprecated",
			Detail:   "In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.",
			Subject:  rng.Ptr(),
		})
	}
	return &hclsyntax.ScopeTraversalExpr{Traversal: trav, SrcRange: rng}, diags
}

// providerPartError returns why s is not a valid provider type or local
// name, or "" when it is valid (possibly not normalized).
func providerPartError(s string) string {
	if s == "" {
		return "must have at least one character"
	}
	for i, r := range s {
		isLetter := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		isDigit := r >= '0' && r <= '9'
		if !isLetter && !isDigit && r != '-' {
			return "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"
		}
		if r == '-' && (i == 0 || i == len(s)-1) {
			return "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"
		}
	}
	if strings.Contains(s, "--") {
		return "cannot use multiple consecutive dashes"
	}
	return ""
}

// checkProviderNameNormalized reports a provider local name that is invalid
// or not lower-case, as OpenTofu does.
func checkProviderNameNormalized(name string, rng hcl.Range) hcl.Diagnostics {
	if msg := providerPartError(name); msg != "" {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider local name",
			Detail:   fmt.Sprintf("%s is an invalid provider local name: %s", name, msg),
			Subject:  rng.Ptr(),
		}}
	}
	if lower := strings.ToLower(name); lower != name {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider local name",
			Detail:   fmt.Sprintf("Provider names must be normalized. Replace %q with %q to fix this error.", name, lower),
			Subject:  rng.Ptr(),
		}}
	}
	return nil
}

// versionConstraintRe matches one comma-separated part of a version
// constraint ("~> 1.2", ">= 1.0.0-beta", "1.2.3").
var versionConstraintRe = regexp.MustCompile(`^\s*(=|!=|>=|<=|>|<|~>)?\s*v?[0-9]+(\.[0-9]+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*$`)

// validVersionConstraint reports whether s uses version constraint syntax.
func validVersionConstraint(s string) bool {
	for _, part := range strings.Split(s, ",") {
		if !versionConstraintRe.MatchString(part) {
			return false
		}
	}
	return true
}

// decodeVersionConstraint decodes a literal version constraint string.
func decodeVersionConstraint(attr *hcl.Attribute) (string, hcl.Diagnostics) {
	if lit, ok := attr.Expr.(*hclsyntax.LiteralValueExpr); ok && !lit.Val.IsKnown() {
		// What the parser puts where an expression failed to parse: the
		// parser has reported it.
		return "", nil
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	s, more := versionConstraintValue(v, attr.Name, attr.Expr.Range())
	return s, append(diags, more...)
}

// versionConstraintValue checks a version constraint's value, set by
// argument name at rng.
func versionConstraintValue(v cty.Value, name string, rng hcl.Range) (string, hcl.Diagnostics) {
	var s string
	if v.IsNull() || !v.IsKnown() || !v.Type().IsPrimitiveType() {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   "A string value is required for " + name + ".",
			Subject:  rng.Ptr(),
		}}
	}
	if sv, err := ctyToString(v); err == nil {
		s = sv
	}
	if !validVersionConstraint(s) {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   "This string does not use correct version constraint syntax.",
			Subject:  rng.Ptr(),
		}}
	}
	return s, nil
}
