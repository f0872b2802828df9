package providertest

import "testing"

func TestBeforeAndOverlapped(t *testing.T) {
	op := func(start, end int) Op { return Op{Start: start, End: end, Action: Create, Key: "x"} }
	tests := []struct {
		name           string
		x, y           Op
		before, overlp bool
	}{
		{name: "x then y", x: op(1, 2), y: op(3, 4), before: true},
		{name: "y then x", x: op(3, 4), y: op(1, 2)},
		{name: "y inside x", x: op(1, 4), y: op(2, 3), overlp: true},
		{name: "staggered", x: op(1, 3), y: op(2, 4), overlp: true},
		{name: "x running, y started later", x: op(1, 0), y: op(2, 3), overlp: true},
		{name: "both running", x: op(1, 0), y: op(2, 0), overlp: true},
		{name: "y running, started after x ended", x: op(1, 2), y: op(3, 0), before: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Before(tt.x, tt.y); got != tt.before {
				t.Errorf("Before = %v, want %v", got, tt.before)
			}
			if got := Overlapped(tt.x, tt.y); got != tt.overlp {
				t.Errorf("Overlapped = %v, want %v", got, tt.overlp)
			}
			if got := Overlapped(tt.y, tt.x); got != tt.overlp {
				t.Errorf("Overlapped (swapped) = %v, want %v", got, tt.overlp)
			}
		})
	}
}

func TestOrderString(t *testing.T) {
	ops := []Op{
		{Start: 1, End: 2, Action: Delete, Key: "a"},
		{Start: 3, End: 4, Action: Create, Key: "a"},
		{Start: 5, End: 7, Action: Update, Key: "b", Err: "boom"},
		{Start: 6, Action: Create, Key: "c"},
	}
	want := "delete a; create a; update b (failed); create c (running)"
	if got := OrderString(ops); got != want {
		t.Errorf("OrderString = %q, want %q", got, want)
	}
	if got := OrderString(nil); got != "" {
		t.Errorf("OrderString(nil) = %q, want empty", got)
	}
	if got := Action(0).String(); got != "invalid" {
		t.Errorf("Action(0) = %q, want invalid", got)
	}
}
