package ctyjson

import (
	"slices"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// attrNames holds the attribute names of an object type sorted, in a
// caller's array while they fit: the encoders sort an object's names for
// every object they write, and a slice made each time was most of
// Marshal's allocations for a stored resource object.
type attrNames [16]string

// sorted returns the names of atys in ascending order, in n when they fit.
func (n *attrNames) sorted(atys map[string]cty.Type) []string {
	names := n[:0]
	for name := range atys {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// indexKeys are the index keys the encoders look up the elements of short
// lists and tuples with: an element iterator makes an iterator and a number
// value for each element.
var indexKeys = func() (keys [64]cty.Value) {
	for i := range keys {
		keys[i] = cty.NumberIntVal(int64(i))
	}
	return keys
}()

// elementAt returns element i of v, a known, non-null list or tuple of
// length n; by index while i has a key made in advance.
func elementAt(v cty.Value, i int) cty.Value {
	if i < len(indexKeys) {
		return v.Index(indexKeys[i])
	}
	return v.Index(cty.NumberIntVal(int64(i)))
}

// scratch holds Marshal's buffers between calls: the result is copied out
// at its exact size, so a value's encoding costs one allocation once the
// buffers have grown.
var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// maxScratch is the largest buffer kept for reuse; larger ones are left
// to the collector.
const maxScratch = 64 << 10
