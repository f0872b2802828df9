package ctyjson

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds the byte-level JSON scanner. It accepts exactly the JSON
// that encoding/json accepts and decodes strings exactly as it does; anything
// else makes the fast path give up.

// maxDepth bounds how deeply nested the containers followed by the fast path
// may be: encoding/json's own limit, so that any value go-cty can decode is
// decoded here in one pass (go-cty's cost grows with the square of the
// depth). Deeper input goes to go-cty, which rejects it.
const maxDepth = 10000

// strSpecial marks the bytes that end the plain run of a JSON string: the
// closing quote, a backslash, control characters and non-ASCII bytes.
var strSpecial = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < ' ' || c >= utf8.RuneSelf
	}
	return t
}()

// peek skips white space and returns the next byte, or 0 at the end of the
// input (a NUL byte is never valid outside a string, so 0 is unambiguous).
func (d *decoder) peek() byte {
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c
		}
	}
	return 0
}

// literal consumes lit, one of true, false and null, at d.pos.
func (d *decoder) literal(lit string) bool {
	end := d.pos + len(lit)
	if end > len(d.data) || string(d.data[d.pos:end]) != lit {
		return false
	}
	d.pos = end
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number consumes a JSON number at d.pos and returns its text, which aliases
// d.data.
func (d *decoder) number() ([]byte, bool) {
	data, i := d.data, d.pos
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		i++
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		return nil, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return nil, false
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return nil, false
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	text := data[d.pos:i]
	d.pos = i
	return text, true
}

// scanString consumes a JSON string at d.pos, which holds its opening quote,
// and returns the bytes between the quotes (aliasing d.data). plain reports
// that they need no decoding: no escapes and valid UTF-8.
func (d *decoder) scanString() (raw []byte, plain, ok bool) {
	data := d.data
	start := d.pos + 1
	i := start
	escaped, ascii := false, true
	for {
		for i < len(data) && !strSpecial[data[i]] {
			i++
		}
		if i >= len(data) {
			return nil, false, false
		}
		switch c := data[i]; {
		case c == '"':
			raw = data[start:i]
			d.pos = i + 1
			return raw, !escaped && (ascii || utf8.Valid(raw)), true
		case c == '\\':
			escaped = true
			if i+1 >= len(data) {
				return nil, false, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if getu4(data[i:]) < 0 {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		case c < ' ':
			return nil, false, false
		default:
			ascii = false
			i++
		}
	}
}

// str consumes a JSON string at d.pos and returns its decoded bytes, which
// alias d.data or d.buf and stay valid only until the next call.
func (d *decoder) str() ([]byte, bool) {
	raw, plain, ok := d.scanString()
	if !ok || plain {
		return raw, ok
	}
	d.buf = unquote(d.buf[:0], raw)
	return d.buf, true
}

// unquote appends the decoding of raw, the validated contents of a JSON
// string, to b exactly as encoding/json decodes it: invalid UTF-8 and
// unpaired surrogate escapes become U+FFFD.
func unquote(b, raw []byte) []byte {
	for r := 0; r < len(raw); {
		c := raw[r]
		switch {
		case c == '\\':
			switch raw[r+1] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := getu4(raw[r:])
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(raw[r:])); dec != unicode.ReplacementChar {
						r += 6
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default: // '"', '\\', '/'
				b = append(b, raw[r+1])
			}
			r += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(raw[r:])
			b = utf8.AppendRune(b, rr)
			r += size
		}
	}
	return b
}

// getu4 decodes the \uXXXX escape at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// skip consumes one JSON value of any shape, validating it.
func (d *decoder) skip() bool {
	switch d.peek() {
	case '{':
		if !d.enter() {
			return false
		}
		d.pos++
		if d.peek() == '}' {
			d.pos++
			d.depth--
			return true
		}
		for {
			if d.peek() != '"' {
				return false
			}
			if _, _, ok := d.scanString(); !ok {
				return false
			}
			if d.peek() != ':' {
				return false
			}
			d.pos++
			if !d.skip() {
				return false
			}
			switch d.peek() {
			case ',':
				d.pos++
			case '}':
				d.pos++
				d.depth--
				return true
			default:
				return false
			}
		}
	case '[':
		if !d.enter() {
			return false
		}
		d.pos++
		if d.peek() == ']' {
			d.pos++
			d.depth--
			return true
		}
		for {
			if !d.skip() {
				return false
			}
			switch d.peek() {
			case ',':
				d.pos++
			case ']':
				d.pos++
				d.depth--
				return true
			default:
				return false
			}
		}
	case '"':
		_, _, ok := d.scanString()
		return ok
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		_, ok := d.number()
		return ok
	}
}

// enter counts one more level of container nesting, refusing more than maxDepth.
func (d *decoder) enter() bool {
	d.depth++
	return d.depth <= maxDepth
}
