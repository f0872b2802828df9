package lang

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

func stringParams(names ...string) []function.Parameter {
	ps := make([]function.Parameter, len(names))
	for i, n := range names {
		ps[i] = function.Parameter{Name: n, Type: cty.String}
	}
	return ps
}

// replaceFunc is Terraform's replace: a substring, or a regular expression
// when the search string is written /like this/.
var replaceFunc = function.New(&function.Spec{
	Description: "Replaces all occurrences of a substring (or regular expression between slashes) with another string.",
	Params:      stringParams("str", "substr", "replace"),
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})

func stringPredicate(name string, fn func(s, sub string) bool) function.Function {
	return function.New(&function.Spec{
		Params: stringParams("str", name),
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return cty.BoolVal(fn(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

var (
	startsWithFunc  = stringPredicate("prefix", strings.HasPrefix)
	endsWithFunc    = stringPredicate("suffix", strings.HasSuffix)
	strContainsFunc = stringPredicate("substr", strings.Contains)
)

func stringToString(fn func(string) (string, error)) function.Function {
	return namedStringToString("str", fn)
}

// namedStringToString is stringToString with its parameter named param,
// the name an argument error shows.
func namedStringToString(param string, fn func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: stringParams(param),
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			s, err := fn(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(s), nil
		},
	})
}

var (
	base64EncodeFunc = stringToString(func(s string) (string, error) {
		return base64.StdEncoding.EncodeToString([]byte(s)), nil
	})
	base64DecodeFunc = stringToString(func(s string) (string, error) {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", fmt.Errorf("failed to decode base64 data %q", s)
		}
		if !utf8.Valid(b) {
			return "", errors.New("the result of decoding the provided string is not valid UTF-8")
		}
		return string(b), nil
	})
	urlEncodeFunc = stringToString(func(s string) (string, error) { return url.QueryEscape(s), nil })
	md5Func       = stringToString(func(s string) (string, error) { return md5Hex([]byte(s)), nil })
	sha1Func      = stringToString(func(s string) (string, error) { return sha1Hex([]byte(s)), nil })
	sha256Func    = stringToString(func(s string) (string, error) { return sha256Hex([]byte(s)), nil })
	sha512Func    = stringToString(func(s string) (string, error) { return sha512Hex([]byte(s)), nil })

	base64Sha256Func = stringToString(func(s string) (string, error) { return sha256Base64([]byte(s)), nil })
	base64Sha512Func = stringToString(func(s string) (string, error) { return sha512Base64([]byte(s)), nil })
)

func md5Hex(b []byte) string    { s := md5.Sum(b); return hex.EncodeToString(s[:]) }
func sha1Hex(b []byte) string   { s := sha1.Sum(b); return hex.EncodeToString(s[:]) }
func sha256Hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func sha512Hex(b []byte) string { s := sha512.Sum512(b); return hex.EncodeToString(s[:]) }

// uuidFunc returns a random version 4 UUID, or an unknown string when only
// pure functions may produce values.
func uuidFunc(pureOnly bool) function.Function {
	return function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if pureOnly {
				return cty.UnknownVal(cty.String), nil
			}
			var b [16]byte
			if _, err := rand.Read(b[:]); err != nil {
				return cty.UnknownVal(cty.String), err
			}
			b[6] = b[6]&0x0f | 0x40
			b[8] = b[8]&0x3f | 0x80
			return cty.StringVal(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])), nil
		},
	})
}

// timestampFunc returns the current time in RFC 3339 form (UTC), or an
// unknown string when only pure functions may produce values.
func timestampFunc(pureOnly bool) function.Function {
	return function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if pureOnly {
				return cty.UnknownVal(cty.String).RefineNotNull(), nil
			}
			return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
		},
	})
}

// planTimestampFunc returns the plan's timestamp; unknown when zero.
func planTimestampFunc(ts time.Time) function.Function {
	return function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if ts.IsZero() {
				return cty.UnknownVal(cty.String).RefineNotNull(), nil
			}
			return cty.StringVal(ts.UTC().Format(time.RFC3339)), nil
		},
	})
}

func sha256Base64(b []byte) string {
	s := sha256.Sum256(b)
	return base64.StdEncoding.EncodeToString(s[:])
}
func sha512Base64(b []byte) string {
	s := sha512.Sum512(b)
	return base64.StdEncoding.EncodeToString(s[:])
}
