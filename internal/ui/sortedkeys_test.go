package ui

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// TestSortedKeys: the keys come back sorted, as many as fit the buffer
// and more.
func TestSortedKeys(t *testing.T) {
	for _, n := range []int{0, 1, 16, 17, 40} {
		m := map[string]int{}
		for i := range n {
			m[fmt.Sprintf("k%02d", (i*7)%n)] = i
		}
		var kb keyBuf
		if got, want := sortedKeys(m, &kb), slices.Sorted(maps.Keys(m)); !slices.Equal(got, want) {
			t.Errorf("%d keys: sortedKeys = %v, want %v", n, got, want)
		}
	}
}
