package lang

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestTimeCmp(t *testing.T) {
	num := func(n int64) cty.Value { return cty.NumberIntVal(n) }
	const invalid = `Invalid value for "timestamp_b" parameter: not a valid RFC3339 timestamp: `
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "equal", src: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")`, want: num(0)},
		{name: "before", src: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")`, want: num(-1)},
		{name: "after", src: `timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00Z")`, want: num(1)},
		{name: "offsets count", src: `timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00-01:00")`, want: num(0)},
		{name: "fractions count", src: `timecmp("2017-11-22T00:00:00.5Z", "2017-11-22T00:00:00Z")`, want: num(1)},
		{name: "unknown", src: `timecmp(var.unknown, "2017-11-22T00:00:00Z")`, want: cty.UnknownVal(cty.Number).RefineNotNull()},
		{name: "sensitive", src: `timecmp(sensitive("2017-11-22T00:00:00Z"), "2017-11-22T00:00:00Z")`, want: num(0).Mark(Sensitive)},
		{name: "no time", src: `timecmp("2017-11-22", "2017-11-22T00:00:00Z")`, summary: argErr,
			detail: `Invalid value for "timestamp_a" parameter: not a valid RFC3339 timestamp: missing required time introducer 'T'.`},
		{name: "no seconds", src: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00")`, summary: argErr, detail: invalid + `end of string where ":" is expected.`},
		{name: "bad month", src: `timecmp("2017-11-22T00:00:00Z", "2017-13-22T00:00:00Z")`, summary: argErr, detail: invalid + `cannot use "-22T00:00:00Z" as month.`},
		{name: "bad offset", src: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00+0200")`, summary: argErr, detail: invalid + `cannot use "+0200" as UTC offset.`},
		{name: "no offset", src: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00")`, summary: argErr, detail: invalid + `end of string before UTC offset.`},
		{name: "null", src: `timecmp("2017-11-22T00:00:00Z", null)`, summary: argErr, detail: `Invalid value for "timestamp_b" parameter: argument must not be null.`},
	})
}

func TestCIDRContains(t *testing.T) {
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "IPv4 address in", src: `cidrcontains("192.168.2.0/20", "192.168.2.1")`, want: cty.True},
		{name: "IPv4 prefix in", src: `cidrcontains("192.168.2.0/20", "192.168.2.0/22")`, want: cty.True},
		{name: "IPv4 address out", src: `cidrcontains("192.168.2.0/20", "192.126.2.1")`, want: cty.False},
		{name: "IPv4 prefix out", src: `cidrcontains("192.168.2.0/20", "192.126.2.0/18")`, want: cty.False},
		{name: "IPv4 prefix wider", src: `cidrcontains("192.168.0.0/20", "192.168.0.0/19")`, want: cty.False},
		{name: "IPv4 prefix itself", src: `cidrcontains("10.0.0.0/8", "10.0.0.0/8")`, want: cty.True},
		{name: "IPv6 in", src: `cidrcontains("fe80::/48", "fe80::1")`, want: cty.True},
		{name: "IPv6 out", src: `cidrcontains("fe80::/48", "fe81::1")`, want: cty.False},
		{name: "unknown", src: `cidrcontains(var.unknown, "10.0.0.1")`, want: cty.UnknownVal(cty.Bool)},
		{name: "sensitive", src: `cidrcontains(sensitive("10.0.0.0/8"), "10.0.0.1")`, want: cty.True.Mark(Sensitive)},
		{name: "IPv6 address in IPv4 prefix", src: `cidrcontains("192.168.2.0/20", "fe80::1")`, summary: callErr,
			detail: `Call to function "cidrcontains" failed: address family mismatch: 192.168.2.0/20 vs. fe80::1.`},
		{name: "IPv4 prefix in IPv6 prefix", src: `cidrcontains("fe80::/48", "192.168.2.0/20")`, summary: callErr,
			detail: `Call to function "cidrcontains" failed: address family mismatch: fe80::/48 vs. 192.168.2.0/20.`},
		{name: "bad prefix", src: `cidrcontains("not-a-cidr", "192.168.2.1")`, summary: callErr,
			detail: `Call to function "cidrcontains" failed: invalid CIDR address: not-a-cidr.`},
		{name: "bad address", src: `cidrcontains("192.168.2.0/20", "not-an-address")`, summary: callErr,
			detail: `Call to function "cidrcontains" failed: invalid IP address or prefix: not-an-address.`},
	})
}

func TestMatchkeys(t *testing.T) {
	strs := func(ss ...string) cty.Value {
		vs := make([]cty.Value, len(ss))
		for i, s := range ss {
			vs[i] = cty.StringVal(s)
		}
		return cty.ListVal(vs)
	}
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "match", src: `matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`, want: strs("i-abc", "i-def")},
		{name: "order of values", src: `matchkeys(["a", "b", "c"], ["x", "y", "z"], ["z", "x"])`, want: strs("a", "c")},
		{name: "no match", src: `matchkeys(["a", "b"], ["x", "y"], ["q"])`, want: cty.ListValEmpty(cty.String)},
		{name: "empty searchset", src: `matchkeys(["a", "b"], [1, 2], [])`, want: cty.ListValEmpty(cty.String)},
		{name: "all empty", src: `matchkeys([], [], [])`, want: cty.ListValEmpty(cty.DynamicPseudoType)},
		{name: "keys converted to the searchset's type", src: `matchkeys([1, 2], [3, 4], ["3"])`, want: cty.ListVal([]cty.Value{cty.NumberIntVal(1)})},
		{name: "null in searchset", src: `matchkeys(["a"], ["x"], [null])`, want: cty.ListValEmpty(cty.String)},
		{name: "unknown values", src: `matchkeys(var.unknown == "" ? ["a"] : ["b"], ["x"], ["x"])`, want: cty.UnknownVal(cty.List(cty.String)).RefineNotNull()},
		{name: "unknown key", src: `matchkeys(["a", "b"], ["x", var.unknown], ["x"])`, want: cty.UnknownVal(cty.List(cty.String)).RefineNotNull()},
		{name: "sensitive searchset", src: `matchkeys(["a", "b"], ["x", "y"], sensitive(["y"]))`, want: strs("b").Mark(Sensitive)},
		{name: "lengths differ", src: `matchkeys(["a"], ["x", "y"], ["x"])`, summary: callErr,
			detail: `Call to function "matchkeys" failed: length of keys and values should be equal.`},
		{name: "types differ", src: `matchkeys(["a", "b"], [["x"], ["y"]], ["y"])`, summary: callErr,
			detail: `Call to function "matchkeys" failed: keys and searchset must be of the same type.`},
	})
}

func TestRemovedFunctions(t *testing.T) {
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "list", src: `list("a")`, summary: callErr,
			detail: `Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tolist([ ... ]) syntax to write a literal list.`},
		{name: "map", src: `map("a", 1)`, summary: callErr,
			detail: `Call to function "map" failed: the "map" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tomap({ ... }) syntax to write a literal map.`},
	})
}
