package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Errors of evaluation never print a sensitive value: conversion
// functions say so in their own words (as Terraform does), and any other
// message that would quote a sensitive value the expression refers to or
// passes to the failed function has it replaced.
func TestErrorsKeepSensitiveValuesOut(t *testing.T) {
	s := &Scope{Data: &fakeData{vars: map[string]cty.Value{
		"secret": cty.StringVal("hunter2-secret").Mark(Sensitive),
		"list":   cty.ListVal([]cty.Value{cty.StringVal("hunter2-in-list")}).Mark(Sensitive),
		"plain":  cty.StringVal("plain-value"),
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
		{`base64decode(var.secret)`, `Invalid value for "str" parameter: failed to decode base64 data (sensitive value).`},
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
