package statefile

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// jsonIndent indents the JSON value src by two spaces a level with line
// prefix pre, as json.MarshalIndent indents a value nested at that prefix;
// it fails if src is not exactly one JSON value.
func jsonIndent(dst *bytes.Buffer, src []byte, pre string) error {
	return json.Indent(dst, src, pre, "  ")
}

// appendString appends s as a JSON string escaped exactly as encoding/json
// escapes strings when HTML escaping is on (the default of json.Marshal):
// \" \\ \b \f \n \r \t, other control characters and <, >, & as \u00XX,
// U+2028 and U+2029 as \u2028 and \u2029, and invalid UTF-8 as \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

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
