package lang

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"regexp"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"
)

func TestBcrypt(t *testing.T) {
	s := &Scope{Data: testData()}
	for _, tc := range []struct{ src, pass, cost string }{
		{`bcrypt("hello world", 4)`, "hello world", "04"},
		{`bcrypt("hello world", 5)`, "hello world", "05"},
		{`bcrypt("", 4)`, "", "04"},
		// Below the minimum, the library's default cost.
		{`bcrypt("x", 3)`, "x", "10"},
	} {
		got, diags := s.EvalExpr(parseExpr(t, tc.src), cty.DynamicPseudoType)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", tc.src, diags.Err())
		}
		h := got.AsString()
		if !regexp.MustCompile(`^\$2a\$` + tc.cost + `\$`).MatchString(h) {
			t.Errorf("%s = %q, want cost %s", tc.src, h, tc.cost)
		}
		if err := bcrypt.CompareHashAndPassword([]byte(h), []byte(tc.pass)); err != nil {
			t.Errorf("%s = %q does not match its input: %v", tc.src, h, err)
		}
	}
	runFuncCases(t, s, []funcCase{
		{name: "sensitive input", src: `issensitive(bcrypt(sensitive("x"), 4))`, want: cty.True},
		{name: "unknown input", src: `bcrypt(var.unknown)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "cost too high", src: `bcrypt("x", 32)`, summary: callErr, detail: `Call to function "bcrypt" failed: error occurred generating password crypto/bcrypt: cost 32 is outside allowed range (4,31).`},
		{name: "fractional cost", src: `bcrypt("x", 1.5)`, summary: callErr, detail: `Call to function "bcrypt" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.`},
		{name: "three arguments", src: `bcrypt("x", 10, 11)`, summary: callErr, detail: `Call to function "bcrypt" failed: bcrypt() takes no more than two arguments.`},
		{name: "too long", src: `bcrypt("${join("", [for i in range(73) : "a"])}")`, summary: callErr, detail: `Call to function "bcrypt" failed: error occurred generating password bcrypt: password length exceeds 72 bytes.`},
		{name: "null", src: `bcrypt(null)`, summary: argErr, detail: `Invalid value for "str" parameter: argument must not be null.`},
	})
	// While only pure functions run (planning), bcrypt is not known.
	runFuncCases(t, &Scope{Data: testData(), PureOnly: true}, []funcCase{
		{name: "plan", src: `bcrypt("x")`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "plan core::", src: `core::bcrypt("x", 4)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
	})
}

func TestRSADecrypt(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 rsadecrypt's inputs are PKCS #1 v1.5 ciphertexts.
	cipher, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("message in a bottle"))
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalECPrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	pemOf := func(typ string, der []byte) string {
		return fmt.Sprintf("%q", pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	pkcs1Key := pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key))
	ct := fmt.Sprintf("%q", base64.StdEncoding.EncodeToString(cipher))
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "PKCS #1", src: `rsadecrypt(` + ct + `, ` + pkcs1Key + `)`, want: cty.StringVal("message in a bottle")},
		{name: "PKCS #8", src: `rsadecrypt(` + ct + `, ` + pemOf("PRIVATE KEY", pkcs8) + `)`, want: cty.StringVal("message in a bottle")},
		{name: "sensitive key", src: `rsadecrypt(` + ct + `, sensitive(` + pkcs1Key + `))`, want: cty.StringVal("message in a bottle").Mark(Sensitive)},
		{name: "unknown ciphertext", src: `rsadecrypt(var.unknown, ` + pkcs1Key + `)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "not base64", src: `rsadecrypt("!!", "x")`, summary: argErr, detail: `Invalid value for "ciphertext" parameter: failed to decode input "!!": cipher text must be base64-encoded.`},
		{name: "not a key", src: `rsadecrypt("aGk=", "x")`, summary: argErr, detail: `Invalid value for "privatekey" parameter: invalid private key: ssh: no key found.`},
		{name: "not an RSA key", src: `rsadecrypt("aGk=", ` + pemOf("EC PRIVATE KEY", ecDER) + `)`, summary: argErr, detail: `Invalid value for "privatekey" parameter: invalid private key type &{`, prefix: true},
		{name: "wrong key", src: `rsadecrypt("aGk=", ` + pkcs1Key + `)`, summary: callErr, detail: `Call to function "rsadecrypt" failed: failed to decrypt: crypto/rsa: decryption error.`},
	})
}

func TestUUIDv5(t *testing.T) {
	str := cty.StringVal
	runFuncCases(t, &Scope{Data: testData()}, []funcCase{
		{name: "dns", src: `uuidv5("dns", "tada")`, want: str("faa898db-9b9d-5b75-86a9-149e7bb8e3b8")},
		{name: "url", src: `uuidv5("url", "https://example.com")`, want: str("4fd35a71-71ef-5a55-a9d9-aa75c889a6d0")},
		{name: "oid", src: `uuidv5("oid", "1.2.3")`, want: str("42d5e23b-3a02-5135-85c6-52d1102f1f00")},
		{name: "x500", src: `uuidv5("x500", "cn=a")`, want: str("5c1fcbd6-0ab9-5b0d-9d61-5bcbb36ee6d0")},
		{name: "namespace as a UUID", src: `uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "tada")`, want: str("faa898db-9b9d-5b75-86a9-149e7bb8e3b8")},
		{name: "unknown name", src: `uuidv5("dns", var.unknown)`, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{name: "sensitive name", src: `uuidv5("dns", sensitive("tada"))`, want: str("faa898db-9b9d-5b75-86a9-149e7bb8e3b8").Mark(Sensitive)},
		{name: "bad namespace", src: `uuidv5("x", "tada")`, summary: callErr, detail: `Call to function "uuidv5" failed: uuidv5() doesn't support namespace x (invalid UUID length: 1).`},
		{name: "empty namespace", src: `uuidv5("", "a")`, summary: callErr, detail: `Call to function "uuidv5" failed: uuidv5() doesn't support namespace  (invalid UUID length: 0).`},
		{name: "null name", src: `uuidv5("dns", null)`, summary: argErr, detail: `Invalid value for "name" parameter: argument must not be null.`},
	})
}
