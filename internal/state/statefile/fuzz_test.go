package statefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse checks that Parse never panics, and that whatever it accepts
// marshals (identically to the reference encoder) and parses back to an
// equal state that marshals to the same bytes.
func FuzzParse(f *testing.F) {
	addStateFileSeeds(f)
	for _, seed := range []string{
		`{"version":4}`,
		`{"version":3}`,
		`{"version":4,"outputs":{"o":{"value":{"value":1,"type":"number"},"type":"dynamic"}}}`,
		`{"version":4,"outputs":{"o":{"value":[1],"type":["set","number"]},"p":{"value":null,"type":["object",{"a":"string"},["a"]]}}}`,
		`{"version":4,"resources":[{"module":"module.a[\"x\"]","mode":"data","type":"t","name":"n","provider":"module.a.provider[\"a/b/c\"].z","instances":[{"index_key":"k","deposed":"01234567","schema_version":1,"attributes_flat":{"a":"<"},"private":"AA==","dependencies":["module.a.b.c"],"identity":null,"identity_schema_version":2}]}]}`,
		`{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","instances":[{"index_key":3,"status":"tainted","schema_version":0,"attributes":{"a":"\u2028<>&"},"sensitive_attributes":[[{"type":"get_attr","value":"a"}]]}]}],"check_results":[{}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		b, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of a parsed state: %v", err)
		}
		if ref := referenceMarshal(t, s); !bytes.Equal(ref, b) {
			t.Fatalf("Marshal differs from reference encoder (-ref +got):\n%s", cmp.Diff(string(ref), string(b)))
		}
		s2, err := Parse(b)
		if err != nil {
			t.Fatalf("Parse of a marshaled state: %v\n%s", err, b)
		}
		if diff := cmp.Diff(s, s2, stateCmp); diff != "" {
			t.Fatalf("state changed through Marshal and Parse (-first +second):\n%s", diff)
		}
		b2, err := Marshal(s2)
		if err != nil {
			t.Fatalf("second Marshal: %v", err)
		}
		if !bytes.Equal(b, b2) {
			t.Fatalf("Marshal is not stable:\n%s\n---\n%s", b, b2)
		}
		line, err := AppendLine([]byte("x"), s)
		if err != nil {
			t.Fatalf("AppendLine of a parsed state: %v", err)
		}
		if bytes.IndexByte(line, '\n') >= 0 || line[0] != 'x' {
			t.Fatalf("AppendLine wrote more than one line after its destination: %q", line)
		}
		s3, err := Parse(line[1:])
		if err != nil {
			t.Fatalf("Parse of AppendLine: %v\n%s", err, line)
		}
		if b3, err := Marshal(s3); err != nil || !bytes.Equal(b, b3) {
			t.Fatalf("state changed through AppendLine and Parse (err %v):\n%s\n---\n%s", err, b, b3)
		}
	})
}

// addStateFileSeeds adds every state file under testdata to f's corpus.
func addStateFileSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.tfstate")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}
