package lang

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

var (
	// base64GzipFunc is base64gzip: gzip, then base64.
	base64GzipFunc = stringToString(func(s string) (string, error) {
		var b bytes.Buffer
		gz := gzip.NewWriter(&b)
		if _, err := gz.Write([]byte(s)); err != nil {
			return "", fmt.Errorf("failed to write gzip raw data: %w", err)
		}
		// OpenTofu flushes before closing, which adds an empty block that
		// is part of the result.
		if err := gz.Flush(); err != nil {
			return "", fmt.Errorf("failed to flush gzip writer: %w", err)
		}
		if err := gz.Close(); err != nil {
			return "", fmt.Errorf("failed to close gzip writer: %w", err)
		}
		return base64.StdEncoding.EncodeToString(b.Bytes()), nil
	})

	// base64GunzipFunc is base64gunzip, the inverse of base64gzip. A
	// sensitive argument is not shown in the error.
	base64GunzipFunc = function.New(&function.Spec{
		Description: "Decodes a base64-encoded string and uncompresses the result with gzip.",
		Params: []function.Parameter{{
			Name: "str", Type: cty.String, AllowMarked: true,
		}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: notNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			str, marks := args[0].Unmark()
			s := str.AsString()
			raw, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redact(s, marks))
			}
			r, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to gunzip bytestream: %w", err)
			}
			out, err := io.ReadAll(r)
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: %w", err)
			}
			return cty.StringVal(string(out)).WithMarks(marks), nil
		},
	})

	// urlDecodeFunc is urldecode, the inverse of urlencode ("+" is a
	// space). OpenTofu's error quotes the (empty) partial result rather
	// than the input; so does this one.
	urlDecodeFunc = stringToString(func(s string) (string, error) {
		out, err := url.QueryUnescape(s)
		if err != nil {
			return "", fmt.Errorf("failed to decode URL '%s': %v", out, err)
		}
		return out, nil
	})
)

// ianaEncoding looks up a character encoding by IANA name or alias; the
// error is an argument error of argument 1.
func ianaEncoding(name string) (encoding.Encoding, string, error) {
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return nil, "", function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this OpenTofu version", name)
	}
	canonical, err := ianaindex.IANA.Name(enc)
	if err != nil {
		canonical = name
	}
	return enc, canonical, nil
}

// textEncodeBase64Func is textencodebase64(string, encoding): the string
// encoded in the named character encoding, then in base64.
var textEncodeBase64Func = function.New(&function.Spec{
	Description:  "Encodes the given string in the named character encoding and returns the result in base64.",
	Params:       stringParams("string", "encoding"),
	Type:         function.StaticReturnType(cty.String),
	RefineResult: notNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		b, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", name)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
	},
})

// textDecodeBase64Func is textdecodebase64(source, encoding), the inverse of
// textencodebase64.
var textDecodeBase64Func = function.New(&function.Spec{
	Description:  "Decodes base64 text in the named character encoding into a string.",
	Params:       stringParams("source", "encoding"),
	Type:         function.StaticReturnType(cty.String),
	RefineResult: notNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			if off, ok := err.(base64.CorruptInputError); ok {
				// OpenTofu's wording, "is has" included.
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given value is has an invalid base64 symbol at offset %d", int(off))
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid source string: %w", err)
		}
		out, err := enc.NewDecoder().Bytes(raw)
		if err != nil || bytes.ContainsRune(out, '\uFFFD') {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", name)
		}
		return cty.StringVal(string(out)), nil
	},
})
