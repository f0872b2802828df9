package ui

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestAttrName: names that are identifiers print bare, others quoted; the
// fast path never accepts what the hcl lexer would not.
func TestAttrName(t *testing.T) {
	tests := map[string]string{
		"id":       "id",
		"_x":       "_x",
		"a-b_1":    "a-b_1",
		"été":      "été",
		"1a":       `"1a"`,
		"-a":       `"-a"`,
		"a b":      `"a b"`,
		"":         `""`,
		"a.b":      `"a.b"`,
		"for_each": "for_each",
	}
	for in, want := range tests {
		if got := attrName(in); got != want {
			t.Errorf("attrName(%q) = %s, want %s", in, got, want)
		}
		if plainIdentifier(in) && !hclsyntax.ValidIdentifier(in) {
			t.Errorf("plainIdentifier(%q) accepts what hcl rejects", in)
		}
	}
}
