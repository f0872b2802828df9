package ctyjson

import "github.com/zclconf/go-cty/cty"

// This file reads the collection and structural types: lists, sets and tuples
// from JSON arrays, maps and objects from JSON objects.

// list reads a list of elements of type ety.
func (d *decoder) list(c byte, ety cty.Type) (cty.Value, bool) {
	base, ok := d.array(c, func(int) (cty.Type, bool) { return ety, true })
	if !ok {
		return cty.NilVal, false
	}
	if len(d.elems) == base {
		return cty.ListValEmpty(ety), true
	}
	v := cty.ListVal(d.elems[base:])
	d.pop(base)
	return v, true
}

// set reads a set of elements of type ety.
func (d *decoder) set(c byte, ety cty.Type) (cty.Value, bool) {
	base, ok := d.array(c, func(int) (cty.Type, bool) { return ety, true })
	if !ok {
		return cty.NilVal, false
	}
	if len(d.elems) == base {
		return cty.SetValEmpty(ety), true
	}
	v := cty.SetVal(d.elems[base:])
	d.pop(base)
	return v, true
}

// tuple reads a tuple of exactly len(etys) elements.
func (d *decoder) tuple(c byte, etys []cty.Type) (cty.Value, bool) {
	base, ok := d.array(c, func(i int) (cty.Type, bool) {
		if i >= len(etys) {
			return cty.NilType, false
		}
		return etys[i], true
	})
	if !ok || len(d.elems)-base != len(etys) {
		return cty.NilVal, false
	}
	if len(etys) == 0 {
		return cty.EmptyTupleVal, true
	}
	v := cty.TupleVal(d.elems[base:])
	d.pop(base)
	return v, true
}

// array reads a JSON array, pushing its elements onto d.elems above base,
// the stack's height on entry. The type of element i is ety(i); false there
// means too many elements.
func (d *decoder) array(c byte, ety func(i int) (cty.Type, bool)) (base int, ok bool) {
	if c != '[' || !d.enter() {
		return 0, false
	}
	d.pos++
	base = len(d.elems)
	if d.peek() == ']' {
		d.pos++
		d.depth--
		return base, true
	}
	for i := 0; ; i++ {
		ty, ok := ety(i)
		if !ok {
			return 0, false
		}
		v, ok := d.value(ty)
		if !ok {
			return 0, false
		}
		d.elems = append(d.elems, v)
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return base, true
		default:
			return 0, false
		}
	}
}

// pop removes the elements above base from d.elems.
func (d *decoder) pop(base int) {
	clear(d.elems[base:])
	d.elems = d.elems[:base]
}

// object reads an object of type ty. Like go-cty, it rejects attributes the
// type lacks, makes missing ones null, and returns a value of the plain
// object type (optional-attribute markers are dropped).
func (d *decoder) object(c byte, ty cty.Type) (cty.Value, bool) {
	atys := ty.AttributeTypes()
	m, ok := d.members(c, len(atys), func(key []byte) (string, cty.Type, bool) {
		aty, ok := atys[string(key)]
		if !ok {
			return "", cty.NilType, false
		}
		return d.intern(key), aty, true
	})
	if !ok {
		return cty.NilVal, false
	}
	if len(m) < len(atys) { // m holds only attributes of atys
		for name, aty := range atys {
			if _, ok := m[name]; !ok {
				m[name] = cty.NullVal(aty)
			}
		}
	}
	v := cty.EmptyObjectVal
	if len(m) > 0 {
		v = cty.ObjectVal(m)
	}
	d.putMap(m)
	return v, true
}

// mapVal reads a map of elements of type ety. Of repeated keys the last wins.
func (d *decoder) mapVal(c byte, ety cty.Type) (cty.Value, bool) {
	m, ok := d.members(c, 0, func(key []byte) (string, cty.Type, bool) {
		return d.intern(key), ety, true
	})
	if !ok {
		return cty.NilVal, false
	}
	var v cty.Value
	if len(m) == 0 {
		v = cty.MapValEmpty(ety)
	} else {
		v = cty.MapVal(m)
	}
	d.putMap(m)
	return v, true
}

// members reads a JSON object into a scratch map, which the caller returns
// with putMap. For each key, member returns the map key to store under and
// the type of the value, or false to reject the key. size hints the number
// of members.
func (d *decoder) members(c byte, size int, member func(key []byte) (string, cty.Type, bool)) (map[string]cty.Value, bool) {
	if c != '{' || !d.enter() {
		return nil, false
	}
	d.pos++
	m := d.getMap(size)
	if d.peek() == '}' {
		d.pos++
		d.depth--
		return m, true
	}
	for {
		if d.peek() != '"' {
			return nil, false
		}
		key, ok := d.str()
		if !ok {
			return nil, false
		}
		name, ty, ok := member(key)
		if !ok || d.peek() != ':' {
			return nil, false
		}
		d.pos++
		v, ok := d.value(ty)
		if !ok {
			return nil, false
		}
		m[name] = v
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			return m, true
		default:
			return nil, false
		}
	}
}

// getMap returns an empty scratch map.
func (d *decoder) getMap(size int) map[string]cty.Value {
	if n := len(d.maps); n > 0 {
		m := d.maps[n-1]
		d.maps = d.maps[:n-1]
		return m
	}
	return make(map[string]cty.Value, size)
}

// putMap clears m and keeps it for reuse unless it has grown large, when
// clearing it again and again would cost more than a new one.
func (d *decoder) putMap(m map[string]cty.Value) {
	if len(m) > maxIdleMapLen {
		return
	}
	clear(m)
	d.maps = append(d.maps, m)
}

// intern returns key as a string, reusing an earlier copy.
func (d *decoder) intern(key []byte) string {
	if s, ok := d.names[string(key)]; ok {
		return s
	}
	s := string(key)
	d.names[s] = s
	return s
}
