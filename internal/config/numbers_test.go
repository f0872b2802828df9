package config

import (
	"strings"
	"testing"
)

// TestNumberLiteralRange checks that number literals too large or too
// small to print in reasonable time are errors at the literal, and that
// ordinary ones load.
func TestNumberLiteralRange(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		errLine int // 0 for no error
	}{
		{name: "ordinary numbers", src: "locals {\n  a = 1e300\n  b = -2.5e-300\n  c = 0\n  d = 1e999\n}\n"},
		{name: "huge exponent", src: "locals {\n  a = 1\n  b = 1e55555555\n}\n", errLine: 3},
		{name: "huge negative", src: "locals {\n  b = -1e1001\n}\n", errLine: 2},
		{name: "tiny", src: "locals {\n  b = 1e-4000\n}\n", errLine: 2},
		{name: "in a resource argument", src: "resource \"terraform_data\" \"a\" {\n  count = 1e55555555\n}\n", errLine: 2},
		{name: "in a nested expression", src: "locals {\n  b = [{ x = 1 + 1e55555555 }]\n}\n", errLine: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := LoadFiles(map[string][]byte{"main.tf": []byte(tt.src)})
			if tt.errLine == 0 {
				if ds.HasErrors() {
					t.Fatalf("unexpected errors: %v", ds.Err())
				}
				return
			}
			if len(ds) != 1 || ds[0].Summary != "Number literal out of range" {
				t.Fatalf("diagnostics = %v, want one Number literal out of range", ds)
			}
			if s := ds[0].Subject; s == nil || s.Filename != "main.tf" || s.Start.Line != tt.errLine {
				t.Errorf("diagnostic at %v, want main.tf line %d", ds[0].Subject, tt.errLine)
			}
		})
	}
}

// TestDecimalOutOfRange judges JSON numbers from their text, at the bound
// of about 1e±1000, without building them.
func TestDecimalOutOfRange(t *testing.T) {
	for s, want := range map[string]bool{
		"0": false, "-0.0": false, "12345": false, "1e1000": false, "9.99e1000": false, "1e-1000": false,
		"1e1001": true, "-1e1001": true, "1e55555555": true, "1e-55555555": true, "1E+1001": true,
		"1" + strings.Repeat("0", 1000): false, "1" + strings.Repeat("0", 1001): true,
		"0." + strings.Repeat("0", 999) + "1": false, "0." + strings.Repeat("0", 1000) + "1": true,
		"0.000e99999999": false,
	} {
		if got := decimalOutOfRange(s); got != want {
			t.Errorf("decimalOutOfRange(%.20q) = %v, want %v", s, got, want)
		}
	}
}
