package statefile

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// indentReference is what appendIndentHTMLSafe must produce: json.Indent,
// then the HTML-safe escaping json.Marshal applies to raw JSON.
func indentReference(src []byte, pre string) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, src, pre, "  "); err != nil {
		return nil, err
	}
	return appendHTMLSafe(nil, buf.Bytes()), nil
}

var indentSeeds = []string{
	`{}`, `[]`, ` { } `, `[ ]`, `null`, `true`, `false`, `0`, `-0`, `-1.5e+10`, `1E-3`, `123`,
	`{"a":1,"b":[1,2,{"c":null}],"d":{}}`,
	"{\n  \"a\" : [ true , false ]\n}\n\t",
	`"<>&\u2028 ` + "\u2028\u2029" + ` \" \\ \/ \b\f\n\r\t \u00e9 é"`,
	`{"value":{"refs":[],"value":"v1-0"},"type":["object",{"refs":["tuple",[]],"value":"string"}]}`,
	// Invalid: each must fail as json.Indent fails.
	``, ` `, `{`, `[`, `]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{a:1}`, `01`, `1.`, `1e`, `-`, `.5`,
	`tru`, `truex`, `nul`, `"abc`, `"\x"`, `"\u12g4"`, "\"a\x01b\"", `{"a":1}}`, `{} {}`, `"\`, `[1,`,
	"\xe2\x80", `"` + "\xe2\x80" + `"`, `"` + "\xe2" + `"`, `[-]`, `{"a":1 "b":2}`, `nulll`, `[tru]`,
}

func TestReformatMatchesEncodingJSON(t *testing.T) {
	deep := strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth)
	tooDeep := "[" + deep + "]"
	for _, src := range append(indentSeeds, deep, tooDeep) {
		for _, pre := range []string{"", "    "} {
			checkIndent(t, []byte(src), pre)
		}
	}
}

// FuzzAppendIndentHTMLSafe checks the hand-written indenter and compacter against
// encoding/json on arbitrary input: same bytes for valid JSON, an error
// (and nothing appended) for anything else.
func FuzzAppendIndentHTMLSafe(f *testing.F) {
	for _, s := range indentSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkIndent(t, src, "  ") })
}

// compactReference is what appendCompactHTMLSafe must produce.
func compactReference(src []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, src); err != nil {
		return nil, err
	}
	return appendHTMLSafe(nil, buf.Bytes()), nil
}

// checkIndent compares both the indenting and the compacting forms with
// encoding/json.
func checkIndent(t *testing.T, src []byte, pre string) {
	t.Helper()
	want, wantErr := indentReference(src, pre)
	got, err := appendIndentHTMLSafe([]byte("x"), src, pre)
	checkReformatted(t, src, got, err, want, wantErr)
	want, wantErr = compactReference(src)
	got, err = appendCompactHTMLSafe([]byte("x"), src)
	checkReformatted(t, src, got, err, want, wantErr)
}

func checkReformatted(t *testing.T, src, got []byte, err error, want []byte, wantErr error) {
	t.Helper()
	switch {
	case wantErr != nil && err == nil:
		t.Fatalf("%q: accepted, encoding/json says %v", src, wantErr)
	case wantErr == nil && err != nil:
		t.Fatalf("%q: %v, encoding/json accepts it", src, err)
	case err != nil:
		if string(got) != "x" {
			t.Fatalf("%q: failed but appended %q", src, got[1:])
		}
	case !bytes.Equal(got[1:], want):
		t.Fatalf("%q:\n got %q\nwant %q", src, got[1:], want)
	}
}

// BenchmarkIndent compares the hand-written indenter with encoding/json on
// the attributes of a typical object.
func BenchmarkIndent(b *testing.B) {
	src := []byte(`{"id":"7880da4a-7c7f-a9b0-9053-887af24fea34","input":{"value":{"refs":["a","b","c"],"value":"v1-0"},"type":["object",{"refs":["tuple",["string","string","string"]],"value":"string"}]},"output":{"value":{"refs":["a","b","c"],"value":"v1-0"},"type":["object",{"refs":["tuple",["string","string","string"]],"value":"string"}]},"triggers_replace":{"value":"t1","type":"string"}}`)
	b.Run("rig", func(b *testing.B) {
		var dst []byte
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			dst, _ = appendIndentHTMLSafe(dst[:0], src, "          ")
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := indentReference(src, "          "); err != nil {
				b.Fatal(err)
			}
		}
	})
}
