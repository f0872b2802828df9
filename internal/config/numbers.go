package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// maxLiteralExp2 bounds the binary exponent of a number literal: about
// 1e1000 in magnitude, either way. A larger literal (1e55555555) parses at
// once but makes everything that prints it write out millions of digits.
const maxLiteralExp2 = 3322 // 2^3322 ≈ 1e1000

// checkNumberLiterals reports each number literal in body whose magnitude
// is beyond about 1e1000 or, other than zero, below about 1e-1000.
func checkNumberLiterals(body hcl.Body) hcl.Diagnostics {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	_ = hclsyntax.VisitAll(sb, func(n hclsyntax.Node) hcl.Diagnostics {
		lit, ok := n.(*hclsyntax.LiteralValueExpr)
		if !ok || lit.Val.Type() != cty.Number || lit.Val.IsNull() || !lit.Val.IsKnown() {
			return nil
		}
		f := lit.Val.AsBigFloat()
		if f.Sign() == 0 || f.IsInf() {
			return nil
		}
		if exp := f.MantExp(nil); exp > maxLiteralExp2 || exp < -maxLiteralExp2 {
			rng := lit.SrcRange
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Number literal out of range",
				Detail:   fmt.Sprintf("rig accepts number literals from about 1e-1000 to 1e1000 in magnitude (or zero); this one is about 2^%d.", exp),
				Subject:  &rng,
			})
		}
		return nil
	})
	return diags
}
