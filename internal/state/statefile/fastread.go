package statefile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
)

// decodeResource decodes one element of a state file's resources array,
// data[i:end], into r as json.Unmarshal would, with a scanner that skips
// through strings with vectorised searches instead of running encoding/json's
// state machine byte by byte (twice: once to validate, once to decode). A
// large state is mostly dependency lists and attributes, which it hands on
// as raw JSON slices of data, validated but not copied; r must not outlive
// data.
//
// It reports false for anything it does not decode exactly as json.Unmarshal
// would, without telling why: a field written twice, a key that matches a
// field only when case is ignored, an unexpected type, invalid JSON, legacy
// flat attributes. The caller then decodes the element with encoding/json,
// which gives the same result or the error.
func decodeResource(data []byte, i, end int, r *resourceV4) bool {
	s := scanner{data: data[:end], i: i}
	var seen uint16
	ok := s.object(func(key []byte) bool {
		f := fieldIndex(resourceFields, key)
		if f == unknownField {
			return s.skip()
		}
		if f < 0 || seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		switch resourceFields[f] {
		case "module":
			return s.str(&r.Module)
		case "mode":
			return s.str(&r.Mode)
		case "type":
			return s.str(&r.Type)
		case "name":
			return s.str(&r.Name)
		case "each":
			return s.str(&r.Each)
		case "provider":
			return s.str(&r.Provider)
		case "instances":
			if s.null() {
				r.Instances = nil
				return true
			}
			r.Instances = []instanceV4{}
			return s.array(func() bool {
				r.Instances = append(r.Instances, instanceV4{})
				return s.instance(&r.Instances[len(r.Instances)-1])
			})
		}
		return false
	})
	return ok && s.space() == end
}

var resourceFields = []string{"module", "mode", "type", "name", "each", "provider", "instances"}

var instanceFields = []string{"index_key", "status", "deposed", "schema_version", "attributes", "attributes_flat",
	"sensitive_attributes", "identity_schema_version", "identity", "private", "dependencies", "create_before_destroy", "skip_destroy", "rig_prevent_destroy", "provider"}

// unknownField is fieldIndex's answer for a key that names no field.
const unknownField = -2

// fieldIndex returns the index of key in fields, unknownField when it
// matches none (encoding/json ignores it), and -1 when it matches one only
// when case is ignored (encoding/json takes it for that field; the fast
// decoder leaves such keys to it).
func fieldIndex(fields []string, key []byte) int {
	for i, f := range fields {
		if string(key) == f {
			return i
		}
	}
	for _, f := range fields {
		if bytes.EqualFold(key, []byte(f)) {
			return -1
		}
	}
	return unknownField
}

// instance decodes one object of an instances array into is.
func (s *scanner) instance(is *instanceV4) bool {
	var seen uint16
	return s.object(func(key []byte) bool {
		f := fieldIndex(instanceFields, key)
		if f == unknownField {
			return s.skip()
		}
		if f < 0 || seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		switch instanceFields[f] {
		case "index_key":
			return s.raw(&is.IndexKey)
		case "status":
			return s.str(&is.Status)
		case "deposed":
			return s.str(&is.Deposed)
		case "schema_version":
			return s.uint(&is.SchemaVersion)
		case "attributes":
			return s.raw(&is.Attributes)
		case "sensitive_attributes":
			return s.raw(&is.SensitiveAttributes)
		case "identity_schema_version":
			if s.null() {
				is.IdentitySchemaVersion = nil
				return true
			}
			is.IdentitySchemaVersion = new(uint64)
			return s.uint(is.IdentitySchemaVersion)
		case "identity":
			return s.raw(&is.Identity)
		case "private":
			return s.bytes(&is.Private)
		case "dependencies":
			return s.raw(&is.Dependencies)
		case "create_before_destroy":
			return s.bool(&is.CreateBeforeDestroy)
		case "skip_destroy":
			return s.bool(&is.SkipDestroy)
		case "rig_prevent_destroy":
			return s.str(&is.PreventDestroy)
		case "provider":
			return s.str(&is.Provider)
		}
		return false // attributes_flat: legacy states, left to encoding/json
	})
}

// scanner reads JSON values from data at i. Its methods report false for
// anything it does not handle, leaving i anywhere.
type scanner struct {
	data []byte
	i    int
}

// space skips white space and returns the offset after it.
func (s *scanner) space() int {
	for s.i < len(s.data) && isJSONSpace(s.data[s.i]) {
		s.i++
	}
	return s.i
}

// object reads an object, calling member for each key (unquoted, free of
// escapes) with the scanner at its value.
func (s *scanner) object(member func(key []byte) bool) bool {
	if s.space() == len(s.data) || s.data[s.i] != '{' {
		return false
	}
	s.i++
	if s.space() < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return true
	}
	for {
		if s.i == len(s.data) || s.data[s.i] != '"' {
			return false
		}
		start := s.i + 1
		end, escaped := s.stringEnd()
		if end < 0 || escaped {
			return false
		}
		key := s.data[start : end-1]
		if s.space() == len(s.data) || s.data[s.i] != ':' {
			return false
		}
		s.i++
		if !member(key) {
			return false
		}
		if s.space() == len(s.data) {
			return false
		}
		switch s.data[s.i] {
		case '}':
			s.i++
			return true
		case ',':
			s.i++
			s.space()
		default:
			return false
		}
	}
}

// array reads an array, calling elem for each element with the scanner at it.
func (s *scanner) array(elem func() bool) bool {
	if s.space() == len(s.data) || s.data[s.i] != '[' {
		return false
	}
	s.i++
	if s.space() < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.space() == len(s.data) {
			return false
		}
		switch s.data[s.i] {
		case ']':
			s.i++
			return true
		case ',':
			s.i++
		default:
			return false
		}
	}
}

// stringEnd validates the string whose quote is at i, moves past it and
// returns its end, and whether it holds escapes; -1 if it is invalid.
func (s *scanner) stringEnd() (end int, escaped bool) {
	j := s.i + 1
	for {
		k := j
		for k < len(s.data) {
			if c := s.data[k]; c < 0x20 || c == '"' || c == '\\' {
				break
			}
			k++
		}
		if k == len(s.data) || s.data[k] < 0x20 {
			return -1, false
		}
		if s.data[k] == '"' {
			s.i = k + 1
			return s.i, escaped
		}
		escaped = true
		if k+1 == len(s.data) {
			return -1, false
		}
		switch s.data[k+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j = k + 2
		case 'u':
			if k+6 > len(s.data) {
				return -1, false
			}
			for _, h := range s.data[k+2 : k+6] {
				if !isHexDigit(h) {
					return -1, false
				}
			}
			j = k + 6
		default:
			return -1, false
		}
	}
}

// null reads a null if one is next.
func (s *scanner) null() bool {
	if s.space()+4 <= len(s.data) && string(s.data[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// str reads a string, or null (which leaves dst as it is).
func (s *scanner) str(dst *string) bool {
	if s.null() {
		return true
	}
	if s.i == len(s.data) || s.data[s.i] != '"' {
		return false
	}
	start := s.i
	end, escaped := s.stringEnd()
	if end < 0 {
		return false
	}
	tok := s.data[start:end]
	if escaped || !isASCII(tok) {
		// encoding/json's own unquoting, for its handling of escapes
		// and invalid UTF-8.
		return json.Unmarshal(tok, dst) == nil
	}
	*dst = string(tok[1 : len(tok)-1])
	return true
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// uint reads a whole number within uint64, or null.
func (s *scanner) uint(dst *uint64) bool {
	if s.null() {
		return true
	}
	start := s.i
	if !s.number() {
		return false
	}
	n, err := strconv.ParseUint(string(s.data[start:s.i]), 10, 64)
	if err != nil {
		return false
	}
	*dst = n
	return true
}

// bool reads true or false, or null.
func (s *scanner) bool(dst *bool) bool {
	switch {
	case s.null():
		return true
	case s.literal("true"):
		*dst = true
		return true
	case s.literal("false"):
		*dst = false
		return true
	}
	return false
}

// bytes reads base64 data as encoding/json decodes it into a []byte, or
// null (nil).
func (s *scanner) bytes(dst *[]byte) bool {
	if s.null() {
		*dst = nil
		return true
	}
	var str string
	if !s.str(&str) {
		return false
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(str)))
	n, err := base64.StdEncoding.Decode(b, []byte(str))
	if err != nil {
		return false
	}
	*dst = b[:n]
	return true
}

// raw reads any value, validated, as a slice of data.
func (s *scanner) raw(dst *json.RawMessage) bool {
	start := s.space()
	if !s.skip() {
		return false
	}
	*dst = s.data[start:s.i:s.i]
	return true
}

// maxDepth bounds the nesting skip follows (encoding/json's is 10,000).
const maxDepth = 1000

// skip validates the value at i and moves past it.
func (s *scanner) skip() bool {
	return s.skipDepth(0)
}

func (s *scanner) skipDepth(depth int) bool {
	if depth > maxDepth || s.space() == len(s.data) {
		return false
	}
	switch c := s.data[s.i]; {
	case c == '"':
		end, _ := s.stringEnd()
		return end >= 0
	case c == '{':
		return s.object(func([]byte) bool { return s.skipDepth(depth + 1) })
	case c == '[':
		return s.array(func() bool { return s.skipDepth(depth + 1) })
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.number()
}

// literal reads word if it is next.
func (s *scanner) literal(word string) bool {
	if s.space()+len(word) <= len(s.data) && string(s.data[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// number reads a number as JSON writes them: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	d, i := s.data, s.i
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i == len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i == len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	s.i = i
	return true
}
