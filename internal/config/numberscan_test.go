package config

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestLongNumberLiteralRange: literals out of range without an exponent
// are refused too, at the literal.
func TestLongNumberLiteralRange(t *testing.T) {
	for _, tt := range []struct {
		lit  string
		fail bool
	}{
		{"1" + strings.Repeat("0", 1001), true},
		{"-1" + strings.Repeat("0", 1001), true},
		{"0." + strings.Repeat("0", 1001) + "1", true},
		{"1" + strings.Repeat("0", 999), false},
		{"0." + strings.Repeat("0", 998) + "1", false},
	} {
		src := "locals {\n  a = 1\n  b = [" + tt.lit + "]\n}\n"
		_, ds := LoadFiles(map[string][]byte{"main.tf": []byte(src)})
		if got := ds.HasErrors(); got != tt.fail {
			t.Errorf("literal of %d characters: errors = %v, want %v (%v)", len(tt.lit), got, tt.fail, ds)
			continue
		}
		if tt.fail && (ds[0].Summary != "Number literal out of range" || ds[0].Subject == nil || ds[0].Subject.Start.Line != 3) {
			t.Errorf("literal of %d characters: %v, want Number literal out of range on line 3", len(tt.lit), ds)
		}
	}
}

// TestMayHoldHugeNumber: the scan that lets a file skip the walk of its
// literals never skips a file the walk refuses, and skips ordinary files.
func TestMayHoldHugeNumber(t *testing.T) {
	for _, src := range []string{
		"resource \"terraform_data\" \"l5_7\" {\n  input = { value = \"v1-507\", refs = [terraform_data.l4_9.id] }\n  count = 3\n}\n",
		"locals {\n  a = 1.5\n  b = -0.25\n  c = 100000\n}\n",
	} {
		if mayHoldHugeNumber([]byte(src)) {
			t.Errorf("mayHoldHugeNumber(%q) = true, want false", src)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	refused := 0
	for range 3000 {
		lit := digits(1 + r.IntN(4))
		if r.IntN(3) == 0 {
			lit = digits(1 + r.IntN(1100))
		}
		if r.IntN(2) == 0 {
			lit += "." + digits(1+r.IntN(1100))
		}
		if r.IntN(3) == 0 {
			lit += [...]string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)] + digits(1+r.IntN(6))
		}
		if r.IntN(2) == 0 {
			lit = "-" + lit
		}
		src := fmt.Sprintf("locals {\n  x = [%s]\n}\n", lit)
		f, ds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatalf("%.40q: %v", src, ds)
		}
		if checkNumberLiterals(f.Body).HasErrors() {
			refused++
			if !mayHoldHugeNumber([]byte(src)) {
				t.Fatalf("mayHoldHugeNumber is false for %q, whose literal is refused", src)
			}
		}
	}
	if refused == 0 {
		t.Fatal("no literal generated was out of range")
	}
}
