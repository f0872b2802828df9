package hclfmt

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/rig-iac/rig/internal/diag"
)

// Source formats src, the contents of the file named filename (used only
// in diagnostics). Beyond the layout of hclwrite.Format (aligned equals
// signs, two-space indentation, canonical spacing), it makes the rewrites
// OpenTofu's and Terraform's fmt make:
//
//   - a block label written as a bare identifier is quoted
//     (resource aws_instance web → resource "aws_instance" "web");
//   - an argument whose whole value is a single interpolation loses the
//     template around it ("${var.x}" → var.x), wrapped in parentheses when
//     the expression spans lines;
//   - a variable's type written in the quoted form of Terraform 0.11
//     ("string", "list", "map") becomes a type constraint (string,
//     list(string), map(string)).
//
// Line endings are kept as they are. When src has syntax errors, Source
// returns them and no result. The returned slice is the caller's.
func Source(src []byte, filename string) ([]byte, diag.Diagnostics) {
	f, hds := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	if hds.HasErrors() {
		return nil, diag.FromHCL(hds)
	}
	formatBody(f.Body(), false)
	return hclwrite.Format(f.Bytes()), nil
}

// formatBody rewrites the arguments of body and, recursively, of its
// blocks. inVariable is true for the body of a variable block.
func formatBody(body *hclwrite.Body, inVariable bool) {
	for name, attr := range body.Attributes() {
		tokens := attr.Expr().BuildTokens(nil)
		if inVariable && name == "type" {
			if t, ok := legacyType(tokens); ok {
				body.SetAttributeRaw(name, t)
				continue
			}
		}
		if t, ok := unwrapInterpolation(tokens); ok {
			body.SetAttributeRaw(name, t)
		}
	}
	for _, b := range body.Blocks() {
		if hasBareLabel(b) {
			b.SetLabels(b.Labels())
		}
		formatBody(b.Body(), b.Type() == "variable")
	}
}

// hasBareLabel reports whether one of b's labels is an identifier rather
// than a quoted string.
func hasBareLabel(b *hclwrite.Block) bool {
	for _, t := range b.BuildTokens(nil)[1:] {
		switch t.Type {
		case hclsyntax.TokenOBrace:
			return false
		case hclsyntax.TokenIdent:
			return true
		}
	}
	return false
}

// legacyType returns the type constraint that a quoted type name of
// Terraform 0.11 ("string", "list" or "map") stands for.
func legacyType(tokens hclwrite.Tokens) (hclwrite.Tokens, bool) {
	if len(tokens) != 3 || tokens[0].Type != hclsyntax.TokenOQuote ||
		tokens[1].Type != hclsyntax.TokenQuotedLit || tokens[2].Type != hclsyntax.TokenCQuote {
		return nil, false
	}
	var kind string
	switch string(tokens[1].Bytes) {
	case "string":
		return hclwrite.Tokens{ident("string")}, true
	case "list":
		kind = "list"
	case "map":
		kind = "map"
	default:
		return nil, false
	}
	return hclwrite.Tokens{
		ident(kind),
		{Type: hclsyntax.TokenOParen, Bytes: []byte("(")},
		ident("string"),
		{Type: hclsyntax.TokenCParen, Bytes: []byte(")")},
	}, true
}

func ident(name string) *hclwrite.Token {
	return &hclwrite.Token{Type: hclsyntax.TokenIdent, Bytes: []byte(name)}
}

// unwrapInterpolation returns the expression inside a template that is
// nothing but one interpolation, "${EXPR}", without the line breaks that
// begin or end it, and in parentheses when it still contains one.
func unwrapInterpolation(tokens hclwrite.Tokens) (hclwrite.Tokens, bool) {
	n := len(tokens)
	if n < 5 || tokens[0].Type != hclsyntax.TokenOQuote || tokens[1].Type != hclsyntax.TokenTemplateInterp ||
		tokens[n-2].Type != hclsyntax.TokenTemplateSeqEnd || tokens[n-1].Type != hclsyntax.TokenCQuote {
		return nil, false
	}
	inner := tokens[2 : n-2]
	for len(inner) > 0 && inner[0].Type == hclsyntax.TokenNewline {
		inner = inner[1:]
	}
	for len(inner) > 0 && inner[len(inner)-1].Type == hclsyntax.TokenNewline {
		inner = inner[:len(inner)-1]
	}
	// The interpolation opened by tokens[1] must be the one tokens[n-2]
	// closes: "${a}${b}" is two.
	depth := 0
	multiline := false
	for _, t := range inner {
		switch t.Type {
		case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
		case hclsyntax.TokenTemplateSeqEnd:
			if depth == 0 {
				return nil, false
			}
			depth--
		case hclsyntax.TokenNewline:
			multiline = true
		}
	}
	if !multiline {
		return inner, true
	}
	out := make(hclwrite.Tokens, 0, len(inner)+2)
	out = append(out, &hclwrite.Token{Type: hclsyntax.TokenOParen, Bytes: []byte("(")})
	out = append(out, inner...)
	return append(out, &hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")}), true
}
