package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
)

// Errors of evaluation never print a sensitive or ephemeral value:
// conversion functions say so in their own words (as OpenTofu does), and
// any other message that would quote such a value the expression refers
// to or passes to the failed function has it replaced by OpenTofu's
// words for it.
func TestErrorsKeepSensitiveValuesOut(t *testing.T) {
	s := &Scope{Data: &fakeData{vars: map[string]cty.Value{
		"secret":    cty.StringVal("hunter2-secret").Mark(Sensitive),
		"list":      cty.ListVal([]cty.Value{cty.StringVal("hunter2-in-list")}).Mark(Sensitive),
		"plain":     cty.StringVal("plain-value"),
		"eph":       cty.StringVal("hunter2-ephemeral").Mark(marks.Ephemeral),
		"ephsecret": cty.StringVal("hunter2-both").Mark(marks.Ephemeral).Mark(Sensitive),
	}}}
	tests := []struct {
		src        string
		wantDetail string
	}{
		{`tonumber(var.secret)`, `Invalid value for "v" parameter: cannot convert this sensitive string to number.`},
		{`tobool(var.secret)`, `Invalid value for "v" parameter: cannot convert this sensitive string to bool.`},
		{`tonumber(var.plain)`, `Invalid value for "v" parameter: cannot convert "plain-value" to number; given string must be a decimal representation of a number.`},
		{`parseint(var.secret, 10)`, `Invalid value for "number" parameter: cannot parse (sensitive value) as a base 10 integer.`},
		{`cidrhost(var.secret, 1)`, `Call to function "cidrhost" failed: invalid CIDR expression: invalid CIDR address: (sensitive value).`},
		{`cidrhost("${var.secret}/x", 1)`, `Call to function "cidrhost" failed: invalid CIDR expression: invalid CIDR address: (sensitive value).`},
		{`cidrhost(var.list[0], 1)`, `Call to function "cidrhost" failed: invalid CIDR expression: invalid CIDR address: (sensitive value).`},
		{`base64decode(var.secret)`, `Call to function "base64decode" failed: failed to decode base64 data (sensitive value).`},
		// An ephemeral value is named so, as OpenTofu names it.
		{`tonumber(var.eph)`, `Invalid value for "v" parameter: cannot convert this ephemeral string to number.`},
		{`tobool(var.ephsecret)`, `Invalid value for "v" parameter: cannot convert this ephemeral string to bool.`},
		{`parseint(var.eph, 10)`, `Invalid value for "number" parameter: cannot parse (ephemeral value) as a base 10 integer.`},
		{`base64decode(var.eph)`, `Call to function "base64decode" failed: failed to decode base64 data (ephemeral value).`},
		{`base64decode(var.ephsecret)`, `failed to decode base64 data (ephemeral sensitive value).`},
		{`file(var.eph)`, `Invalid value for "path" parameter: no file exists at (ephemeral value); this function`},
		// The key a lookup quotes is not the argument at fault (the map).
		{`lookup({ x = 1 }, var.eph)`, `the given object has no attribute (ephemeral value).`},
		{`lookup({ x = 1 }, var.secret)`, `the given object has no attribute (sensitive value).`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			got := diags[0].Summary + ": " + diags[0].Detail
			if !strings.Contains(got, tt.wantDetail) {
				t.Errorf("got  %s\nwant …%s", got, tt.wantDetail)
			}
			if strings.Contains(got, "hunter2") {
				t.Errorf("the message shows the secret: %s", got)
			}
		})
	}
}
