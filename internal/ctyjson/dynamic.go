package ctyjson

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// dynamic reads a value of cty.DynamicPseudoType, stored as
// {"value": <value>, "type": <type>} with the keys in either order. When the
// value comes first, as go-cty writes it, it is skipped and read again once
// the type is known.
func (d *decoder) dynamic(c byte) (cty.Value, bool) {
	if c != '{' || !d.enter() {
		return cty.NilVal, false
	}
	d.pos++
	var (
		ty       cty.Type
		haveType bool
		v        cty.Value
		haveVal  bool
		valAt    = -1 // offset of a value read before its type
	)
	for {
		if d.peek() != '"' {
			return cty.NilVal, false
		}
		key, ok := d.str()
		if !ok || d.peek() != ':' {
			return cty.NilVal, false
		}
		d.pos++
		switch string(key) {
		case "value":
			if haveVal || valAt >= 0 {
				return cty.NilVal, false // a repeated key: go-cty's last-wins rules apply
			}
			if haveType {
				v, ok = d.value(ty)
				haveVal = true
			} else {
				d.peek()
				valAt = d.pos
				ok = d.skip()
			}
		case "type":
			if haveType {
				return cty.NilVal, false
			}
			d.peek()
			at := d.pos
			if !d.skip() {
				return cty.NilVal, false
			}
			ty, ok = cachedType(d.data[at:d.pos])
			haveType = true
		default:
			return cty.NilVal, false
		}
		if !ok {
			return cty.NilVal, false
		}
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case '}':
			d.pos++
		default:
			return cty.NilVal, false
		}
		break
	}
	if !haveType {
		return cty.NilVal, false
	}
	if valAt >= 0 {
		end := d.pos
		d.pos = valAt
		var ok bool
		if v, ok = d.value(ty); !ok {
			return cty.NilVal, false
		}
		d.pos = end
		haveVal = true
	}
	if !haveVal {
		return cty.NilVal, false
	}
	d.depth--
	return v, true
}

// types caches the decoding of the type descriptions of dynamic values, which
// repeat from object to object: string (the description's JSON text) to
// cty.Type. Only successful decodings are cached, and at most maxTypes.
var (
	types    sync.Map
	numTypes atomic.Int64
)

const maxTypes = 10000

// cachedType decodes raw, the JSON text of a type description, with
// UnmarshalType.
func cachedType(raw []byte) (cty.Type, bool) {
	// The lookup key aliases raw rather than copying it: Load does not keep
	// its key, and raw does not change during the call.
	if t, ok := types.Load(unsafe.String(unsafe.SliceData(raw), len(raw))); ok {
		return t.(cty.Type), true
	}
	t, err := UnmarshalType(raw)
	if err != nil {
		return cty.NilType, false
	}
	if numTypes.Load() < maxTypes {
		if _, loaded := types.LoadOrStore(string(raw), t); !loaded {
			numTypes.Add(1)
		}
	}
	return t, true
}
