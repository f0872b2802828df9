package lang

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestEncodingFunctions(t *testing.T) {
	str := cty.StringVal
	unknown := cty.UnknownVal(cty.String)
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		// base64gzip: gzip with an extra empty flushed block, as OpenTofu writes.
		{name: "base64gzip empty", src: `base64gzip("")`, want: str("H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA==")},
		{name: "base64gzip", src: `base64gzip("hello world")`, want: str("H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA==")},
		{name: "base64gzip unknown", src: `base64gzip(var.unknown)`, want: unknown},
		{name: "base64gzip null", src: `base64gzip(null)`, summary: argErr, detail: `Invalid value for "str" parameter: argument must not be null.`},

		{name: "base64gunzip", src: `base64gunzip("H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA==")`, want: str("hello world")},
		{name: "base64gunzip round trip", src: `base64gunzip(base64gzip("héllo\n"))`, want: str("héllo\n")},
		{name: "base64gunzip keeps sensitive", src: `base64gunzip(sensitive(base64gzip("x")))`, want: str("x").Mark(Sensitive)},
		{name: "base64gunzip unknown", src: `base64gunzip(var.unknown)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "base64gunzip bad base64", src: `base64gunzip("aGk")`, summary: callErr, detail: `Call to function "base64gunzip" failed: failed to decode base64 data "aGk".`},
		{name: "base64gunzip bad base64 sensitive", src: `base64gunzip(sensitive("aGk"))`, summary: callErr, detail: `Call to function "base64gunzip" failed: failed to decode base64 data (sensitive value).`},
		{name: "base64gunzip not gzip", src: `base64gunzip("aGk=")`, summary: callErr, detail: `Call to function "base64gunzip" failed: failed to gunzip bytestream: unexpected EOF.`},

		{name: "urldecode", src: `urldecode("a+b%26c%3D%E2%82%AC")`, want: str("a b&c=€")},
		{name: "urldecode inverse of urlencode", src: `urldecode(urlencode("a b/c?d=é"))`, want: str("a b/c?d=é")},
		{name: "urldecode plain", src: `urldecode("abc")`, want: str("abc")},
		{name: "urldecode unknown", src: `urldecode(var.unknown)`, want: unknown},
		{name: "urldecode bad escape", src: `urldecode("a%zz")`, summary: callErr, detail: `Call to function "urldecode" failed: failed to decode URL '': invalid URL escape "%zz".`},

		{name: "textencodebase64 UTF-16LE", src: `textencodebase64("Hello World", "UTF-16LE")`, want: str("SABlAGwAbABvACAAVwBvAHIAbABkAA==")},
		{name: "textencodebase64 UTF-8", src: `textencodebase64("Hello World", "UTF-8")`, want: str("SGVsbG8gV29ybGQ=")},
		{name: "textencodebase64 alias", src: `textencodebase64("é", "latin1")`, want: str("6Q==")},
		{name: "textencodebase64 unknown", src: `textencodebase64(var.unknown, "UTF-8")`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "textencodebase64 unrepresentable", src: `textencodebase64("🤔", "cp437")`, summary: argErr, detail: `Invalid value for "string" parameter: the given string contains characters that cannot be represented in IBM437.`},
		{name: "textencodebase64 unknown encoding", src: `textencodebase64("abc", "nope")`, summary: argErr, detail: `Invalid value for "encoding" parameter: "nope" is not a supported IANA encoding name or alias in this OpenTofu version.`},

		{name: "textdecodebase64 UTF-16LE", src: `textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`, want: str("Hello World")},
		{name: "textdecodebase64 round trip", src: `textdecodebase64(textencodebase64("čšž", "windows-1250"), "windows-1250")`, want: str("čšž")},
		{name: "textdecodebase64 bad symbol", src: `textdecodebase64("a!c", "UTF-8")`, summary: argErr, detail: `Invalid value for "source" parameter: the given value is has an invalid base64 symbol at offset 1.`},
		{name: "textdecodebase64 undefined symbol", src: `textdecodebase64("/w==", "US-ASCII")`, summary: argErr, detail: `Invalid value for "source" parameter: the given string contains symbols that are not defined for US-ASCII.`},
		{name: "textdecodebase64 unknown encoding", src: `textdecodebase64("abc", "nope")`, summary: argErr, detail: `Invalid value for "encoding" parameter: "nope" is not a supported IANA encoding name or alias in this OpenTofu version.`},
	})
}
