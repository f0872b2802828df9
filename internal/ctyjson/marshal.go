package ctyjson

import (
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	goctyjson "github.com/zclconf/go-cty/cty/json"
)

const hexDigits = "0123456789abcdef"

// Marshal encodes v, a value of type ty, as go-cty's cty/json.Marshal does,
// byte for byte, without its reflection-based encoding of strings and
// dynamic types. Whenever it meets what it does not handle (marks, unknown
// values, infinities, capsule types) it returns go-cty's own result, so
// error texts are go-cty's.
func Marshal(v cty.Value, ty cty.Type) ([]byte, error) {
	buf := scratch.Get().(*[]byte)
	b, ok := appendValue((*buf)[:0], v, ty)
	var out []byte
	if ok {
		out = slices.Clone(b)
	}
	if cap(b) <= maxScratch {
		*buf = b
		scratch.Put(buf)
	}
	if !ok {
		return goctyjson.Marshal(v, ty)
	}
	return out, nil
}

func appendValue(b []byte, v cty.Value, ty cty.Type) ([]byte, bool) {
	if v.IsMarked() || !v.IsKnown() {
		return b, false
	}
	if ty == cty.DynamicPseudoType && v.Type() != cty.DynamicPseudoType {
		b = append(b, `{"value":`...)
		b, ok := appendValue(b, v, v.Type())
		if !ok {
			return b, false
		}
		b = append(b, `,"type":`...)
		if b, ok = appendType(b, v.Type()); !ok {
			return b, false
		}
		return append(b, '}'), true
	}
	if v.IsNull() {
		return append(b, "null"...), true
	}
	switch {
	case ty == cty.String:
		return AppendString(b, v.AsString()), true
	case ty == cty.Number:
		if v.RawEquals(cty.PositiveInfinity) || v.RawEquals(cty.NegativeInfinity) {
			return b, false
		}
		return v.AsBigFloat().Append(b, 'f', -1), true
	case ty == cty.Bool:
		if v.True() {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case ty.IsListType():
		ety := ty.ElementType()
		b = append(b, '[')
		for i := range v.LengthInt() {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, elementAt(v, i), ety); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case ty.IsSetType():
		ety := ty.ElementType()
		b = append(b, '[')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				b = append(b, ',')
			}
			first = false
			_, ev := it.Element()
			var ok bool
			if b, ok = appendValue(b, ev, ety); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case ty.IsMapType():
		ety := ty.ElementType()
		b = append(b, '{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				b = append(b, ',')
			}
			first = false
			ek, ev := it.Element()
			b = AppendString(b, ek.AsString())
			b = append(b, ':')
			var ok bool
			if b, ok = appendValue(b, ev, ety); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		b = append(b, '[')
		for i := range etys {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, elementAt(v, i), etys[i]); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		b = append(b, '{')
		var names attrNames
		for i, name := range names.sorted(atys) {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, name)
			b = append(b, ':')
			var ok bool
			if b, ok = appendValue(b, v.GetAttr(name), atys[name]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false // capsule types, or a value that does not conform to ty
}

// appendType appends ty as cty.Type's MarshalJSON writes it (as json.Marshal
// passes it on).
func appendType(b []byte, ty cty.Type) ([]byte, bool) {
	var ok bool
	switch {
	case ty == cty.String:
		return append(b, `"string"`...), true
	case ty == cty.Number:
		return append(b, `"number"`...), true
	case ty == cty.Bool:
		return append(b, `"bool"`...), true
	case ty == cty.DynamicPseudoType:
		return append(b, `"dynamic"`...), true
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		kind := `["list",`
		if ty.IsSetType() {
			kind = `["set",`
		} else if ty.IsMapType() {
			kind = `["map",`
		}
		b = append(b, kind...)
		if b, ok = appendType(b, ty.ElementType()); !ok {
			return b, false
		}
		return append(b, ']'), true
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		b = append(b, `["object",{`...)
		var names attrNames
		for i, name := range names.sorted(atys) {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, name)
			b = append(b, ':')
			if b, ok = appendType(b, atys[name]); !ok {
				return b, false
			}
		}
		b = append(b, '}')
		if opt := ty.OptionalAttributes(); len(opt) > 0 {
			b = append(b, ",["...)
			for i, name := range slices.Sorted(maps.Keys(opt)) {
				if i > 0 {
					b = append(b, ',')
				}
				b = AppendString(b, name)
			}
			b = append(b, ']')
		}
		return append(b, ']'), true
	case ty.IsTupleType():
		b = append(b, `["tuple",[`...)
		for i, ety := range ty.TupleElementTypes() {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendType(b, ety); !ok {
				return b, false
			}
		}
		return append(b, "]]"...), true
	}
	return b, false
}

// AppendString appends s as a JSON string escaped exactly as encoding/json
// escapes strings when HTML escaping is on (the default of json.Marshal):
// \" \\ \b \f \n \r \t, other control characters and <, >, & as \u00XX,
// U+2028 and U+2029 as \u2028 and \u2029, and invalid UTF-8 as \ufffd.
func AppendString(dst []byte, s string) []byte {
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
