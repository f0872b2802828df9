package ui

import "slices"

// keyBuf holds a map's keys while they are few, on its caller's stack:
// every object, map and block of every change rendered sorts its keys, and
// a slice made for them each time was a large part of a plan's rendering
// allocations.
type keyBuf [16]string

// sortedKeys returns the keys of m in ascending order, in buf when they fit.
func sortedKeys[V any](m map[string]V, buf *keyBuf) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
