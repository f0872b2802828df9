package lang

import (
	"crypto/rsa"
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"
)

func notNull(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() }

// bcryptFunc is bcrypt(str, cost): a salted Blowfish hash in Modular Crypt
// Format, with cost 10 unless given (and the library's default for a cost
// below its minimum). A new salt each call makes it impure: with pureOnly
// the result is an unknown string, as OpenTofu's plan-time value is.
func bcryptFunc(pureOnly bool) function.Function {
	return function.New(&function.Spec{
		Description:  "Computes a hash of the given string using the Blowfish cipher.",
		Params:       stringParams("str"),
		VarParam:     &function.Parameter{Name: "cost", Type: cty.Number},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: notNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if pureOnly {
				// Like OpenTofu, unchecked until the value is made.
				return cty.UnknownVal(cty.String).RefineNotNull(), nil
			}
			cost := bcrypt.DefaultCost
			if len(args) > 1 {
				if err := gocty.FromCtyValue(args[1], &cost); err != nil {
					return cty.UnknownVal(cty.String), err
				}
			}
			if len(args) > 2 {
				return cty.UnknownVal(cty.String), errors.New("bcrypt() takes no more than two arguments")
			}
			out, err := bcrypt.GenerateFromPassword([]byte(args[0].AsString()), cost)
			var costErr bcrypt.InvalidCostError
			if errors.As(err, &costErr) {
				// In the words of the library OpenTofu 1.10 is built with.
				err = fmt.Errorf("crypto/bcrypt: cost %d is outside allowed range (%d,%d)", int(costErr), bcrypt.MinCost, bcrypt.MaxCost)
			}
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("error occurred generating password %w", err)
			}
			return cty.StringVal(string(out)), nil
		},
	})
}

// rsaDecryptFunc is rsadecrypt(ciphertext, privatekey): PKCS #1 v1.5
// decryption of base64 ciphertext with a PEM RSA key (PKCS #1, PKCS #8 or
// OpenSSH form), worded as OpenTofu words a bad input.
var rsaDecryptFunc = function.New(&function.Spec{
	Description:  "Decrypts an RSA-encrypted ciphertext, returning the corresponding cleartext.",
	Params:       stringParams("ciphertext", "privatekey"),
	Type:         function.StaticReturnType(cty.String),
	RefineResult: notNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		text := args[0].AsString()
		cipher, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input %q: cipher text must be base64-encoded", text)
		}
		raw, err := ssh.ParseRawPrivateKey([]byte(args[1].AsString()))
		if err != nil {
			var msg string
			switch e := err.(type) {
			case asn1.SyntaxError:
				msg = strings.ReplaceAll(e.Error(), "asn1: syntax error", "invalid ASN1 data in the given private key")
			case asn1.StructuralError:
				msg = strings.ReplaceAll(e.Error(), "asn1: structure error", "invalid ASN1 data in the given private key")
			default:
				msg = fmt.Sprintf("invalid private key: %s", e)
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%s", msg)
		}
		key, ok := raw.(*rsa.PrivateKey)
		if !ok {
			// OpenTofu formats the key with %t, which names its Go type.
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key type %t", raw)
		}
		//lint:ignore SA1019 rsadecrypt decrypts PKCS #1 v1.5 ciphertexts, as OpenTofu's does: that is the function's contract.
		out, err := rsa.DecryptPKCS1v15(nil, key, cipher)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decrypt: %w", err)
		}
		return cty.StringVal(string(out)), nil
	},
})

// uuidV5Func is uuidv5(namespace, name): the name-based (SHA-1) UUID of name
// in namespace, which is "dns", "url", "oid", "x500" or a UUID.
var uuidV5Func = function.New(&function.Spec{
	Description:  "Generates a name-based UUID, as described in RFC 4122 section 4.3.",
	Params:       stringParams("namespace", "name"),
	Type:         function.StaticReturnType(cty.String),
	RefineResult: notNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var ns uuid.UUID
		switch s := args[0].AsString(); s {
		case "dns":
			ns = uuid.NameSpaceDNS
		case "url":
			ns = uuid.NameSpaceURL
		case "oid":
			ns = uuid.NameSpaceOID
		case "x500":
			ns = uuid.NameSpaceX500
		default:
			var err error
			if ns, err = uuid.Parse(s); err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("uuidv5() doesn't support namespace %s (%w)", s, err)
			}
		}
		return cty.StringVal(uuid.NewSHA1(ns, []byte(args[1].AsString())).String()), nil
	},
})
