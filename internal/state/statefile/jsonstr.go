package statefile

import (
	"bytes"

	"github.com/rig-iac/rig/internal/ctyjson"
)

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string escaped exactly as encoding/json
// escapes strings when HTML escaping is on (see ctyjson.AppendString).
func appendString(dst []byte, s string) []byte { return ctyjson.AppendString(dst, s) }

// appendHTMLSafe appends the JSON text src with <, >, & and the encodings of
// U+2028 and U+2029 escaped, the one change json.Marshal makes to the bytes
// of a json.RawMessage besides removing white space.
func appendHTMLSafe(dst, src []byte) []byte {
	if bytes.IndexByte(src, '<') < 0 && bytes.IndexByte(src, '>') < 0 &&
		bytes.IndexByte(src, '&') < 0 && bytes.IndexByte(src, 0xe2) < 0 {
		return append(dst, src...) // the common case, found with vectorised scans
	}
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			start = i + 1
		case c == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xa8:
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xf])
			i += 2
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}

// appendCompactValid appends src without insignificant white space and with
// HTML-safe escaping, as json.Compact then appendHTMLSafe would, for src
// already known to be valid JSON (every raw field of a document that
// json.Unmarshal accepted). It skips through strings with vectorised
// searches instead of running the JSON state machine byte by byte.
func appendCompactValid(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			i++
		case '"':
			end := stringEnd(src, i)
			dst = appendHTMLSafe(dst, src[i:end])
			i = end
		default:
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != ' ' && src[j] != '\n' && src[j] != '\t' && src[j] != '\r' {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the index just after the string literal that starts
// with the quote at src[i].
func stringEnd(src []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src) // unreachable for valid JSON
		}
		j += k
		n := 0 // backslashes before the quote
		for p := j - 1; p > i && src[p] == '\\'; p-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j
		}
	}
}
