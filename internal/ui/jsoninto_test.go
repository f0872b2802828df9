package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestDocumentView(t *testing.T) {
	var out bytes.Buffer
	if (DocumentView{W: &out}).Wanted() {
		t.Errorf("without -json or -json-into the document is wanted")
	}
	human, ds := DocumentView{W: &out, JSON: true}.Write([]byte(`{"a":1}`))
	if human || len(ds) > 0 || out.String() != "{\"a\":1}\n" {
		t.Errorf("-json: human %v, %v, output %q", human, ds, out.String())
	}
	out.Reset()
	path := filepath.Join(t.TempDir(), "doc.json")
	human, ds = DocumentView{W: &out, Into: path}.Write([]byte(`{"b":2}`))
	if !human || len(ds) > 0 || out.Len() > 0 {
		t.Errorf("-json-into: human %v, %v, output %q", human, ds, out.String())
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "{\"b\":2}\n" {
		t.Errorf("the -json-into file holds %q (%v)", data, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the -json-into file's mode: %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if _, ds := OpenJSONInto(path, true); !ds.HasErrors() || ds[0].Summary != "Invalid output format" {
		t.Errorf("-json with -json-into: %v", ds)
	}
	if _, ds := (DocumentView{Into: filepath.Join(path, "not-a-dir", "x")}).Write([]byte("{}")); !ds.HasErrors() {
		t.Errorf("an unwritable -json-into file: no error")
	}
}
