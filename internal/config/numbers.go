package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

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

// NumberOutOfRange reports whether the number v is beyond about 1e1000 or,
// other than zero, below about 1e-1000 in magnitude (the bound number
// literals have), with its binary exponent. A value that is not a known
// number is not out of range.
func NumberOutOfRange(v cty.Value) (exp2 int, out bool) {
	if v.Type() != cty.Number || v.IsNull() || !v.IsKnown() {
		return 0, false
	}
	v, _ = v.Unmark()
	f := v.AsBigFloat()
	if f.Sign() == 0 || f.IsInf() {
		return 0, false
	}
	exp := f.MantExp(nil)
	return exp, exp > maxLiteralExp2 || exp < -maxLiteralExp2
}

// ValueNumberOutOfRange finds a number in v (at any depth) that
// NumberOutOfRange refuses: its path and binary exponent.
func ValueNumberOutOfRange(v cty.Value) (path cty.Path, exp2 int, found bool) {
	_ = cty.Walk(v, func(p cty.Path, el cty.Value) (bool, error) {
		if found {
			return false, nil
		}
		if exp, out := NumberOutOfRange(el); out {
			path, exp2, found = p.Copy(), exp, true
			return false, nil
		}
		return true, nil
	})
	return path, exp2, found
}

// checkJSONNumbers reports each number in a JSON configuration file src
// (name, for ranges) beyond the bound of number literals, judged from its
// text so that no huge number is ever built.
func checkJSONNumbers(name string, src []byte) hcl.Diagnostics {
	var diags hcl.Diagnostics
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return diags // the parser reports syntax errors
		}
		n, ok := tok.(json.Number)
		if !ok || !decimalOutOfRange(string(n)) {
			continue
		}
		rng := offsetRange(name, src, int(start), int(dec.InputOffset()))
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Number literal out of range",
			Detail:   "rig accepts numbers from about 1e-1000 to 1e1000 in magnitude (or zero).",
			Subject:  &rng,
		})
	}
}

// decimalOutOfRange reports whether the JSON number s is beyond about
// 1e±1000 in magnitude, from its digits and exponent alone.
func decimalOutOfRange(s string) bool {
	mant, expPart, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(s, "-")), "e")
	if strings.Trim(mant, "0.") == "" {
		return false // zero, whatever its exponent
	}
	exp := 0
	if expPart != "" {
		neg := strings.HasPrefix(expPart, "-")
		digits := strings.TrimLeft(strings.TrimLeft(expPart, "+-"), "0")
		if len(digits) > 6 {
			return true // an exponent of a million or more
		}
		exp, _ = strconv.Atoi("0" + digits)
		if neg {
			exp = -exp
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	intPart = strings.TrimLeft(intPart, "0")
	switch {
	case intPart != "":
		exp += len(intPart) - 1
	default:
		trimmed := strings.TrimLeft(frac, "0")
		if trimmed == "" {
			return false // zero
		}
		exp -= len(frac) - len(trimmed) + 1
	}
	return exp > 1000 || exp < -1000
}

// offsetRange is the range of src[start:end] in file name, leading white
// space and separators skipped.
func offsetRange(name string, src []byte, start, end int) hcl.Range {
	for start < end && strings.ContainsRune(" \t\r\n,:", rune(src[start])) {
		start++
	}
	pos := func(off int) hcl.Pos {
		line := 1 + bytes.Count(src[:off], []byte("\n"))
		col := off - bytes.LastIndexByte(src[:off], '\n')
		return hcl.Pos{Line: line, Column: col, Byte: off}
	}
	return hcl.Range{Filename: name, Start: pos(start), End: pos(end)}
}
