package addrs

import (
	"fmt"
	"strconv"
	"strings"
)

type keyKind uint8

const (
	noKeyKind keyKind = iota
	intKeyKind
	stringKeyKind
)

// InstanceKey selects one instance of a resource: none (a single-instance
// resource), an integer (count) or a string (for_each). The zero value is NoKey.
type InstanceKey struct {
	kind keyKind
	i    int
	s    string
}

// NoKey is the key of a resource without count or for_each.
var NoKey = InstanceKey{}

// IntKey is the key of a count instance.
func IntKey(i int) InstanceKey { return InstanceKey{kind: intKeyKind, i: i} }

// StringKey is the key of a for_each instance.
func StringKey(s string) InstanceKey { return InstanceKey{kind: stringKeyKind, s: s} }

// IsNone reports whether k is NoKey.
func (k InstanceKey) IsNone() bool { return k.kind == noKeyKind }

// IsInt reports whether k is a count index.
func (k InstanceKey) IsInt() bool { return k.kind == intKeyKind }

// IsString reports whether k is a for_each key.
func (k InstanceKey) IsString() bool { return k.kind == stringKeyKind }

// Int returns the count index of an IntKey (0 otherwise).
func (k InstanceKey) Int() int { return k.i }

// Str returns the for_each key of a StringKey ("" otherwise).
func (k InstanceKey) Str() string { return k.s }

// String returns the key in index syntax: "", "[0]" or `["a"]`.
func (k InstanceKey) String() string {
	switch k.kind {
	case intKeyKind:
		return "[" + strconv.Itoa(k.i) + "]"
	case stringKeyKind:
		return "[" + quote(k.s) + "]"
	}
	return ""
}

// Less orders keys: none first, then integers numerically, then strings.
func (k InstanceKey) Less(o InstanceKey) bool {
	if k.kind != o.kind {
		return k.kind < o.kind
	}
	if k.kind == intKeyKind {
		return k.i < o.i
	}
	return k.s < o.s
}

// quote renders s as an HCL string literal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Compare is Less as a three-way comparison, for slices.SortFunc.
func (k InstanceKey) Compare(o InstanceKey) int {
	switch {
	case k == o:
		return 0
	case k.Less(o):
		return -1
	}
	return 1
}

// Equal reports whether k and o are the same key (k == o); go-cmp uses it
// to compare values that hold keys.
func (k InstanceKey) Equal(o InstanceKey) bool { return k == o }
