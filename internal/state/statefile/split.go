package statefile

import (
	"bytes"
	"encoding/json"
	"sync/atomic"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/state"
)

// parallelParseMin is the size from which Parse decodes a state file's
// resources on every processor. Smaller files, the usual case, are decoded
// in one pass.
var parallelParseMin = 1 << 20

// parseParallel decodes a large state file with its resources decoded in
// parallel: a scan that follows only strings and brackets cuts the top-level
// "resources" array into its elements, decodeResource (or, for what it
// leaves, encoding/json) validates and decodes each element, and
// encoding/json the rest of the file with an empty array in their place. ok is false whenever the file is not a plain
// version-4 object with such an array, or when any piece fails to decode or
// the resources do not simply add up (an error, a resource recorded twice);
// the caller then parses the whole file in one pass, which reports errors
// exactly.
func parseParallel(data []byte) (*state.State, bool) {
	arr, elems, ok := resourceElements(data)
	if !ok || len(elems) == 0 {
		return nil, false
	}
	skeleton := make([]byte, 0, arr.from+2+len(data)-arr.to)
	skeleton = append(skeleton, data[:arr.from]...)
	skeleton = append(skeleton, "[]"...)
	skeleton = append(skeleton, data[arr.to:]...)
	var f fileV4
	if json.Unmarshal(skeleton, &f) != nil || checkVersion(f.Version) != nil {
		return nil, false
	}

	const window = 64
	f.Resources = make([]resourceV4, len(elems))
	var failed atomic.Bool
	parallel.For((len(elems)+window-1)/window, func(w int) {
		for i := w * window; i < min(len(elems), (w+1)*window) && !failed.Load(); i++ {
			if decodeResource(data, elems[i].from, elems[i].to, &f.Resources[i]) {
				continue
			}
			f.Resources[i] = resourceV4{}
			if json.Unmarshal(data[elems[i].from:elems[i].to], &f.Resources[i]) != nil {
				failed.Store(true)
			}
		}
	})
	if failed.Load() {
		return nil, false
	}
	if s, ok := decodeV4Parallel(&f); ok {
		return s, true
	}
	// A resource recorded twice, or some error: the one-pass decoder merges
	// the first and reports the first of the others.
	s, err := decodeV4(&f)
	return s, err == nil
}

// decodeV4Parallel decodes f's resources in windows on every processor, or
// returns false if any window fails or two windows hold the same resource.
func decodeV4Parallel(f *fileV4) (*state.State, bool) {
	const window = 512
	parts := make([]*state.State, (len(f.Resources)+window-1)/window)
	var failed atomic.Bool
	parallel.For(len(parts), func(w int) {
		part := &fileV4{Resources: f.Resources[w*window : min(len(f.Resources), (w+1)*window)]}
		s, err := decodeV4(part)
		if err != nil {
			failed.Store(true)
			return
		}
		parts[w] = s
	})
	if failed.Load() {
		return nil, false
	}
	rest := *f
	rest.Resources = nil
	s, err := decodeV4(&rest)
	if err != nil {
		return nil, false
	}
	s.Resources = make(map[addrs.AbsResource]*state.Resource, len(f.Resources))
	for _, part := range parts {
		for addr, r := range part.Resources {
			if _, dup := s.Resources[addr]; dup {
				return nil, false
			}
			s.Resources[addr] = r
		}
	}
	return s, true
}

// span is the byte range [from, to) of a state file.
type span struct{ from, to int }

// resourceElements finds the top-level "resources" array of a state file
// and each of its elements, which must be objects. It follows strings and
// brackets only, validating nothing else (the pieces are decoded by
// encoding/json afterwards), and reports false for any other shape: a
// top-level value that is not an object, a key written with escapes, a key
// that encoding/json would also match to "resources" (it ignores case).
func resourceElements(data []byte) (arr span, elems []span, ok bool) {
	i := skipJSONSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return span{}, nil, false
	}
	i = skipJSONSpace(data, i+1)
	found := false
	for i < len(data) && data[i] != '}' {
		if data[i] != '"' {
			return span{}, nil, false
		}
		end := stringEnd(data, i)
		if end >= len(data) {
			return span{}, nil, false
		}
		key := data[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return span{}, nil, false
		}
		i = skipJSONSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return span{}, nil, false
		}
		i = skipJSONSpace(data, i+1)
		if bytes.EqualFold(key, []byte("resources")) {
			if found || string(key) != "resources" || i >= len(data) || data[i] != '[' {
				return span{}, nil, false
			}
			found = true
			arr.from = i
			if i, elems, ok = arrayElements(data, i); !ok {
				return span{}, nil, false
			}
			arr.to = i
		} else if i = skipJSONValue(data, i); i < 0 {
			return span{}, nil, false
		}
		i = skipJSONSpace(data, i)
		if i < len(data) && data[i] == ',' {
			i = skipJSONSpace(data, i+1)
		}
	}
	return arr, elems, found
}

// arrayElements finds the elements of the array that opens at data[i],
// each of which must be an object, and returns the offset after the array.
func arrayElements(data []byte, i int) (end int, elems []span, ok bool) {
	i = skipJSONSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1, nil, true
	}
	for {
		if i >= len(data) || data[i] != '{' {
			return 0, nil, false
		}
		to := skipJSONValue(data, i)
		if to < 0 {
			return 0, nil, false
		}
		elems = append(elems, span{i, to})
		i = skipJSONSpace(data, to)
		switch {
		case i >= len(data):
			return 0, nil, false
		case data[i] == ']':
			return i + 1, elems, true
		case data[i] != ',':
			return 0, nil, false
		}
		i = skipJSONSpace(data, i+1)
	}
}

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && isJSONSpace(data[i]) {
		i++
	}
	return i
}

// skipJSONValue returns the offset after the value that starts at data[i]:
// a string (len(data) if it does not end), an object or array with its
// brackets balanced (-1 if they do not close), or a run of other bytes (a
// number or literal).
func skipJSONValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = stringEnd(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(data) && !isJSONSpace(data[i]) && data[i] != ',' && data[i] != '}' && data[i] != ']' {
		i++
	}
	return i
}
