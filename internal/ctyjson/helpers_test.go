package ctyjson

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// outcome is what one Unmarshal implementation did with an input.
type outcome struct {
	val      cty.Value
	err      string // "" when it succeeded
	panicked string // the panic value, "" when it returned
}

func run(f func([]byte, cty.Type) (cty.Value, error), data []byte, ty cty.Type) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o.panicked = fmt.Sprint(r)
		}
	}()
	v, err := f(data, ty)
	o.val = v
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// checkSame reports whether Unmarshal and go-cty's Unmarshal agree on data:
// the same panic, the same error text, or RawEquals values whose numbers also
// have the same precision and sign.
func checkSame(t testing.TB, data []byte, ty cty.Type) outcome {
	t.Helper()
	want := run(ctyjson.Unmarshal, data, ty)
	got := run(Unmarshal, data, ty)
	switch {
	case (want.panicked == "") != (got.panicked == ""):
		t.Fatalf("Unmarshal(%q, %#v): panics differ: go-cty %q, ours %q", data, ty, want.panicked, got.panicked)
	case want.panicked != "":
	case want.err != "" || got.err != "":
		if want.err != got.err {
			t.Fatalf("Unmarshal(%q, %#v): errors differ (-go-cty +ours):\n%s", data, ty, cmp.Diff(want.err, got.err))
		}
	case !want.val.RawEquals(got.val):
		t.Fatalf("Unmarshal(%q, %#v): values differ:\ngo-cty %#v\nours   %#v", data, ty, want.val, got.val)
	default:
		if diff := cmp.Diff(numbers(want.val), numbers(got.val)); diff != "" {
			t.Fatalf("Unmarshal(%q, %#v): numbers differ (-go-cty +ours):\n%s", data, ty, diff)
		}
	}
	return got
}

// numbers lists the exact form of every known number in v, in walk order:
// RawEquals compares numbers by value only.
func numbers(v cty.Value) []string {
	var out []string
	cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.Type() == cty.Number && v.IsKnown() && !v.IsNull() {
			f := v.AsBigFloat()
			out = append(out, fmt.Sprintf("%s prec=%d neg=%v", f.Text('p', 0), f.Prec(), f.Signbit()))
		}
		return true, nil
	})
	return out
}
