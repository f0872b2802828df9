package config

import "github.com/hashicorp/hcl/v2"

// minHugeDigits is fewer digits than any number literal beyond the bound
// of checkNumberLiterals needs without an exponent: 1e1000 has 1,001 (and
// 1e-1000 a fraction of 1,000).
const minHugeDigits = 900

// mayHoldHugeNumber reports whether native syntax src may hold a number
// literal that checkNumberLiterals refuses: one with an exponent (a digit
// followed by e or E) or a long run of digits. It looks at the bytes only,
// strings and comments included, so it may say yes where there is none;
// never no where there is one.
func mayHoldHugeNumber(src []byte) bool {
	run := 0
	for _, c := range src {
		switch {
		case '0' <= c && c <= '9':
			if run++; run >= minHugeDigits {
				return true
			}
		case (c == 'e' || c == 'E') && run > 0:
			return true
		default:
			run = 0
		}
	}
	return false
}

// checkFileNumberLiterals is checkNumberLiterals for the body parsed from
// src, which skips the walk of its syntax when src holds no literal that
// could be out of range.
func checkFileNumberLiterals(body hcl.Body, src []byte) hcl.Diagnostics {
	if !mayHoldHugeNumber(src) {
		return nil
	}
	return checkNumberLiterals(body)
}
