package statefile

import (
	"errors"
	"fmt"
	"strings"
)

// maxJSONDepth is the deepest nesting of objects and arrays accepted in raw
// JSON, the limit encoding/json enforces.
const maxJSONDepth = 10000

// appendIndentHTMLSafe appends the JSON value src indented by two spaces a
// level with line prefix pre, and with <, >, & and U+2028/U+2029 escaped in
// strings: byte for byte what json.Indent followed by appendHTMLSafe
// produce. Like json.Indent it fails, appending nothing, unless src is one
// JSON value (white space before it is dropped, after it kept). It does the
// validation and the indentation in one pass with a hand-written scanner,
// several times faster than encoding/json's byte-at-a-time state machine on
// the attribute documents that make up most of a state file.
func appendIndentHTMLSafe(dst, src []byte, pre string) ([]byte, error) {
	return appendReformatted(indenter{src: src, dst: dst, pre: pre, preSpaces: strings.Trim(pre, " ") == ""})
}

// appendCompactHTMLSafe is appendIndentHTMLSafe without white space between
// tokens: what json.Compact followed by appendHTMLSafe produce.
func appendCompactHTMLSafe(dst, src []byte) ([]byte, error) {
	return appendReformatted(indenter{src: src, dst: dst, compact: true})
}

// appendReformatted runs in over its source: in.dst on success, the
// original dst with nothing appended on failure.
func appendReformatted(in indenter) ([]byte, error) {
	dst, src := in.dst, in.src
	in.space()
	if err := in.value(0); err != nil {
		return dst, err
	}
	rest := src[in.i:]
	for _, c := range rest {
		if !isJSONSpace(c) {
			return dst, in.errorf("invalid character %q after top-level value", c)
		}
	}
	if in.compact {
		return in.dst, nil
	}
	return append(in.dst, rest...), nil
}

// indenter is the state of one appendIndentHTMLSafe: src[i] is the next
// byte to read.
type indenter struct {
	src []byte
	i   int
	dst []byte
	pre string
	// preSpaces says whether pre is only spaces, as it is in a state file.
	preSpaces bool
	// compact leaves out all white space between tokens.
	compact bool
}

var errJSONEnd = errors.New("unexpected end of JSON input")

func (in *indenter) errorf(format string, args ...any) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", in.i, fmt.Sprintf(format, args...))
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// space skips white space.
func (in *indenter) space() {
	for in.i < len(in.src) && isJSONSpace(in.src[in.i]) {
		in.i++
	}
}

// newline starts a line indented for the given depth.
func (in *indenter) newline(depth int) {
	if in.compact {
		return
	}
	if n := 1 + len(in.pre) + 2*depth; in.preSpaces && n <= len(newlineSpaces) {
		in.dst = append(in.dst, newlineSpaces[:n]...)
		return
	}
	in.dst = append(in.dst, '\n')
	in.dst = append(in.dst, in.pre...)
	for range depth {
		in.dst = append(in.dst, ' ', ' ')
	}
}

// newlineSpaces is a newline and the indentation of lines up to 128 spaces deep.
const newlineSpaces = "\n" +
	"                                                                " +
	"                                                                "

// value reads and writes one value nested in depth objects and arrays.
func (in *indenter) value(depth int) error {
	if in.i >= len(in.src) {
		return errJSONEnd
	}
	switch c := in.src[in.i]; {
	case c == '{' || c == '[':
		return in.container(depth, c)
	case c == '"':
		return in.str()
	case c == '-' || c >= '0' && c <= '9':
		return in.number()
	case c == 't':
		return in.literal("true")
	case c == 'f':
		return in.literal("false")
	case c == 'n':
		return in.literal("null")
	default:
		return in.errorf("invalid character %q looking for beginning of value", c)
	}
}

// container reads and writes an object or array whose opening bracket is
// at src[i].
func (in *indenter) container(depth int, open byte) error {
	if depth+1 > maxJSONDepth {
		return in.errorf("exceeded max depth")
	}
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	in.i++
	in.dst = append(in.dst, open)
	in.space()
	if in.i < len(in.src) && in.src[in.i] == closing {
		in.i++
		in.dst = append(in.dst, closing)
		return nil
	}
	for {
		in.newline(depth + 1)
		if open == '{' {
			if in.i >= len(in.src) {
				return errJSONEnd
			}
			if in.src[in.i] != '"' {
				return in.errorf("invalid character %q looking for beginning of object key string", in.src[in.i])
			}
			if err := in.str(); err != nil {
				return err
			}
			in.space()
			if in.i >= len(in.src) {
				return errJSONEnd
			}
			if in.src[in.i] != ':' {
				return in.errorf("invalid character %q after object key", in.src[in.i])
			}
			in.i++
			in.dst = append(in.dst, ':')
			if !in.compact {
				in.dst = append(in.dst, ' ')
			}
			in.space()
		}
		if err := in.value(depth + 1); err != nil {
			return err
		}
		in.space()
		if in.i >= len(in.src) {
			return errJSONEnd
		}
		switch c := in.src[in.i]; c {
		case ',':
			in.i++
			in.dst = append(in.dst, ',')
			in.space()
		case closing:
			in.i++
			in.newline(depth)
			in.dst = append(in.dst, closing)
			return nil
		default:
			return in.errorf("invalid character %q after %s element", c, map[byte]string{'{': "object", '[': "array"}[open])
		}
	}
}

// strByte classifies the bytes of a string's content: 0 for bytes copied
// as they are, 1 for those that end or escape the run of such bytes.
var strByte = func() (t [256]byte) {
	for c := range 0x20 {
		t[c] = 1
	}
	for _, c := range []byte{'"', '\\', '<', '>', '&', 0xe2} {
		t[c] = 1
	}
	return t
}()

// str reads and writes the string whose opening quote is at src[i].
func (in *indenter) str() error {
	src := in.src
	start := in.i
	i := in.i + 1
	for {
		for i < len(src) && strByte[src[i]] == 0 {
			i++
		}
		if i >= len(src) {
			in.i = i
			return errJSONEnd
		}
		switch c := src[i]; {
		case c == '"':
			i++
			in.dst = append(in.dst, src[start:i]...)
			in.i = i
			return nil
		case c == '\\':
			if i+1 >= len(src) {
				in.i = i
				return errJSONEnd
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(src) {
						in.i = i + k
						return errJSONEnd
					}
					if !isHexDigit(src[i+k]) {
						in.i = i + k
						return in.errorf("invalid character %q in \\u hexadecimal character escape", src[i+k])
					}
				}
				i += 6
			default:
				in.i = i + 1
				return in.errorf("invalid character %q in string escape code", src[i+1])
			}
		case c < 0x20:
			in.i = i
			return in.errorf("invalid character %q in string literal", c)
		case c == '<' || c == '>' || c == '&':
			in.dst = append(in.dst, src[start:i]...)
			in.dst = append(in.dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			i++
			start = i
		default: // 0xe2, the first byte of U+2028 and U+2029 among others
			if i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xa8 {
				in.dst = append(in.dst, src[start:i]...)
				in.dst = append(in.dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xf])
				i += 3
				start = i
			} else {
				i++
			}
		}
	}
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads and writes the number that starts at src[i].
func (in *indenter) number() error {
	src := in.src
	start := in.i
	i := in.i
	if src[i] == '-' {
		i++
	}
	digits := func() error {
		if i >= len(src) {
			in.i = i
			return errJSONEnd
		}
		if !isDigit(src[i]) {
			in.i = i
			return in.errorf("invalid character %q in numeric literal", src[i])
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		return nil
	}
	if i < len(src) && src[i] == '0' {
		i++
	} else if err := digits(); err != nil {
		return err
	}
	if i < len(src) && src[i] == '.' {
		i++
		if err := digits(); err != nil {
			return err
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if err := digits(); err != nil {
			return err
		}
	}
	in.dst = append(in.dst, src[start:i]...)
	in.i = i
	return nil
}

// literal reads and writes true, false or null, whose first byte is at src[i].
func (in *indenter) literal(word string) error {
	for k := range len(word) {
		if in.i+k >= len(in.src) {
			in.i += k
			return errJSONEnd
		}
		if in.src[in.i+k] != word[k] {
			in.i += k
			return in.errorf("invalid character %q in literal %s (expecting %q)", in.src[in.i], word, word[k])
		}
	}
	in.dst = append(in.dst, word...)
	in.i += len(word)
	return nil
}
