package addrs

import (
	"strconv"
	"strings"
)

// rawStep is one step of a module instance path as it is written in the
// path's canonical form (the form Child writes): the call name, and the key
// still in index syntax, without its brackets ("" for none, `0`, `"k"`).
type rawStep struct {
	name string
	key  string
}

// nextStep reads the first step of a canonical module instance path and
// returns it with the rest of the path after the step's dot. It allocates
// nothing; ok is false when s does not start with a canonical step.
func nextStep(s string) (st rawStep, rest string, ok bool) {
	s, ok = strings.CutPrefix(s, "module.")
	if !ok {
		return rawStep{}, "", false
	}
	i := strings.IndexAny(s, ".[")
	if i < 0 {
		return rawStep{name: s}, "", s != ""
	}
	st.name = s[:i]
	if st.name == "" {
		return rawStep{}, "", false
	}
	if s[i] == '[' {
		end := keyEnd(s, i+1)
		if end < 0 {
			return rawStep{}, "", false
		}
		st.key = s[i+1 : end]
		i = end + 1
	}
	switch {
	case i == len(s):
		return st, "", true
	case s[i] == '.' && i+1 < len(s):
		return st, s[i+1:], true
	}
	return rawStep{}, "", false
}

// keyEnd returns the index of the "]" closing the key that starts at
// s[start], or -1.
func keyEnd(s string, start int) int {
	if start < len(s) && s[start] == '"' {
		for i := start + 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				if i+1 < len(s) && s[i+1] == ']' {
					return i + 1
				}
				return -1
			}
		}
		return -1
	}
	i := start
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start || i == len(s) || s[i] != ']' {
		return -1
	}
	return i
}

// instanceKey decodes the step's key. The key was checked by keyEnd; a
// string key holds only the escapes quote writes, which Go's syntax shares.
func (st rawStep) instanceKey() InstanceKey {
	switch {
	case st.key == "":
		return NoKey
	case st.key[0] != '"':
		i, err := strconv.Atoi(st.key)
		if err != nil {
			panic("invalid count index " + st.key)
		}
		return IntKey(i)
	case strings.IndexByte(st.key, '\\') < 0:
		return StringKey(st.key[1 : len(st.key)-1])
	}
	k, err := strconv.Unquote(st.key)
	if err != nil {
		panic("invalid for_each key " + st.key)
	}
	return StringKey(k)
}

func (st rawStep) instance() ModuleCallInstance {
	return ModuleCallInstance{Name: st.name, Key: st.instanceKey()}
}

// compare orders steps as ModuleInstance.Compare does: by name, then key.
// Keys of the same kind without escapes compare without being decoded.
func (st rawStep) compare(o rawStep) int {
	if c := strings.Compare(st.name, o.name); c != 0 || st.key == o.key {
		return c
	}
	if st.key != "" && o.key != "" && st.key[0] == '"' && o.key[0] == '"' &&
		strings.IndexByte(st.key, '\\') < 0 && strings.IndexByte(o.key, '\\') < 0 {
		return strings.Compare(st.key[1:len(st.key)-1], o.key[1:len(o.key)-1])
	}
	return st.instanceKey().Compare(o.instanceKey())
}
