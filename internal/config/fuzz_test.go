package config

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzLoad checks that no input makes the loader panic, in either syntax,
// and that a partial module always comes back.
func FuzzLoad(f *testing.F) {
	paths, _ := filepath.Glob("testdata/load/*.txtar")
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if file.Name != "want" {
				f.Add(file.Data, filepath.Ext(file.Name) == ".json")
			}
		}
	}
	f.Add([]byte(`resource "a" "b" { lifecycle { ignore_changes = [a[0]["x"].b] } }`), false)
	f.Add([]byte(`{"resource": {"a": {"b": {"lifecycle": {"replace_triggered_by": ["${a.c[0]}"]}}}}}`), true)

	f.Fuzz(func(t *testing.T, src []byte, isJSON bool) {
		name := "main.tf"
		if isJSON {
			name = "main.tf.json"
		}
		m, _ := LoadFiles(map[string][]byte{name: src})
		if m == nil || m.Terraform == nil {
			t.Fatal("LoadFiles returned no module")
		}
	})
}
