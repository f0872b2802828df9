package statemgr

import (
	"bytes"
	"testing"
)

// TestContentHashPieces checks that a content's sum does not depend on
// the pieces it is written in, and that other content has another sum.
func TestContentHashPieces(t *testing.T) {
	data := bytes.Repeat([]byte(`{"dependencies":["terraform_data.a","terraform_data.b"]}`+"\n"), 5000)
	sumOf := func(cuts ...int) contentSum {
		h := newContentHash()
		from := 0
		for _, c := range append(cuts, len(data)) {
			h.Write(data[from:c])
			from = c
		}
		return h.sum()
	}
	whole := sumOf()
	for _, cuts := range [][]int{{1}, {127, 128, 129}, {64 << 10}, {3, 70000, 200000}} {
		if got := sumOf(cuts...); got != whole {
			t.Errorf("cut at %v: sum %x, want %x", cuts, got, whole)
		}
	}
	data[len(data)/2] ^= 1
	if sumOf() == whole {
		t.Error("a changed byte keeps the sum")
	}
}
