package ctyjson

import (
	"sync"
	"unique"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Unmarshal decodes data, a JSON value, as a value of type ty. It returns
// exactly what go-cty's cty/json.Unmarshal(data, ty) returns: when it succeeds
// the value is RawEquals to go-cty's, and when it fails the error is the one
// go-cty reports (Unmarshal calls go-cty to produce it).
//
// Like go-cty, it decodes JSON null as a null of the expected type, a string
// as a number or bool when it parses as one, a number or bool as a string,
// missing object attributes as nulls, and a value of type
// cty.DynamicPseudoType from a {"value": ..., "type": ...} object. The
// returned value does not alias data.
//
// Unmarshal is safe for concurrent use.
func Unmarshal(data []byte, ty cty.Type) (cty.Value, error) {
	if v, ok := decode(data, ty); ok {
		return v, nil
	}
	return ctyjson.Unmarshal(data, ty)
}

// decode is the fast path. It reports false for any input it does not decode
// itself, errors included, leaving that input to go-cty.
func decode(data []byte, ty cty.Type) (v cty.Value, ok bool) {
	d := decoders.Get().(*decoder)
	d.data = data
	defer func() {
		// A go-cty constructor panicked (as go-cty itself would, unless it
		// finds an error first): let go-cty decide, and drop the decoder,
		// whose scratch state may be inconsistent.
		if recover() != nil {
			v, ok = cty.NilVal, false
			return
		}
		d.release()
	}()
	v, ok = d.value(ty)
	d.peek() // trailing white space
	return v, ok && d.pos == len(d.data)
}

// decoders holds idle decoders so that their scratch space is reused.
var decoders = sync.Pool{New: func() any { return &decoder{names: map[string]string{}} }}

// decoder is the state of one decode. It is owned by one goroutine at a
// time; idle decoders wait in the decoders pool.
type decoder struct {
	data  []byte // the input; nil while idle
	pos   int    // offset of the next unread byte of data
	depth int    // nesting of the containers being read

	// elems is a stack of element values of the lists, sets and tuples
	// being read; each container pushes above its parent's elements and
	// pops its own when done.
	elems []cty.Value
	// maps holds cleared maps for building objects and maps.
	maps []map[string]cty.Value
	// names interns object attribute names and map keys, which repeat
	// from object to object.
	names map[string]string
	// buf holds the decoding of the last string that had escapes.
	buf []byte
}

// Limits on the scratch space a decoder keeps while idle.
const (
	maxIdleNames  = 4096
	maxIdleElems  = 4096
	maxIdleMapLen = 64
	maxIdleBuf    = 64 << 10
)

// release returns d to the pool, dropping the input and oversized scratch space.
func (d *decoder) release() {
	d.data, d.pos, d.depth = nil, 0, 0
	clear(d.elems) // non-empty only after a failure
	d.elems = d.elems[:0]
	if cap(d.elems) > maxIdleElems {
		d.elems = nil
	}
	if len(d.names) > maxIdleNames {
		clear(d.names)
	}
	if cap(d.buf) > maxIdleBuf {
		d.buf = nil
	}
	decoders.Put(d)
}

// value reads one value of type ty.
func (d *decoder) value(ty cty.Type) (cty.Value, bool) {
	c := d.peek()
	if c == 'n' {
		if !d.literal("null") {
			return cty.NilVal, false
		}
		return cty.NullVal(ty), true
	}
	switch {
	case ty == cty.String:
		return d.stringVal(c)
	case ty == cty.Number:
		return d.numberVal(c)
	case ty == cty.Bool:
		return d.boolVal(c)
	case ty == cty.DynamicPseudoType:
		return d.dynamic(c)
	case ty.IsObjectType():
		return d.object(c, ty)
	case ty.IsListType():
		return d.list(c, ty.ElementType())
	case ty.IsSetType():
		return d.set(c, ty.ElementType())
	case ty.IsMapType():
		return d.mapVal(c, ty.ElementType())
	case ty.IsTupleType():
		return d.tuple(c, ty.TupleElementTypes())
	default:
		// Capsule types decode through encoding/json: go-cty's job.
		return cty.NilVal, false
	}
}

// stringVal reads a string; like go-cty it also takes a number (its literal
// text) or a bool.
func (d *decoder) stringVal(c byte) (cty.Value, bool) {
	switch c {
	case '"':
		s, ok := d.str()
		if !ok {
			return cty.NilVal, false
		}
		return cty.StringVal(intern(s)), true
	case 't', 'f':
		b, ok := d.boolLit(c)
		if !ok {
			return cty.NilVal, false
		}
		v, err := convert.Convert(cty.BoolVal(b), cty.String)
		return v, err == nil
	default:
		text, ok := d.number()
		if !ok {
			return cty.NilVal, false
		}
		return cty.StringVal(string(text)), true
	}
}

// intern returns s as a string shared with every other string of the same
// content that is still in use: the values decoded from a state repeat
// the same identifiers many times (an object's id in the arguments and
// outputs of the objects that refer to it).
func intern(s []byte) string {
	if len(s) > maxInterned {
		return string(s)
	}
	return unique.Make(string(s)).Value()
}

// maxInterned is the length beyond which strings are not interned: long
// ones (file contents, documents) rarely repeat.
const maxInterned = 256

// numberVal reads a number; like go-cty it also takes a string that parses
// as one. Both are parsed by cty.ParseNumberVal, so precision and rounding
// are go-cty's.
func (d *decoder) numberVal(c byte) (cty.Value, bool) {
	var text []byte
	var ok bool
	if c == '"' {
		text, ok = d.str()
	} else {
		text, ok = d.number()
	}
	if !ok {
		return cty.NilVal, false
	}
	v, err := cty.ParseNumberVal(string(text))
	return v, err == nil
}

// boolVal reads a bool; like go-cty it also takes a string that converts to one.
func (d *decoder) boolVal(c byte) (cty.Value, bool) {
	if c == '"' {
		s, ok := d.str()
		if !ok {
			return cty.NilVal, false
		}
		v, err := convert.Convert(cty.StringVal(string(s)), cty.Bool)
		return v, err == nil
	}
	b, ok := d.boolLit(c)
	if !ok {
		return cty.NilVal, false
	}
	return cty.BoolVal(b), true
}

// boolLit reads the literal true or false that starts with c.
func (d *decoder) boolLit(c byte) (b, ok bool) {
	switch c {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	}
	return false, false
}
