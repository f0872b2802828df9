package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update is the -update flag of the tests that import this package: set,
// Check rewrites each golden file with what its test produced, and the
// tests rewrite their other expected outputs (txtar sections, screenshots)
// likewise.
var Update = flag.Bool("update", false, "rewrite the golden files with what the tests produce")

// Check compares got with the golden file at path and reports the
// difference (-want +got). With -update it writes got to path instead,
// creating the directories it needs; a file already holding got is left
// as it is. A missing golden file fails the test, saying how to make it.
func Check[T ~string | ~[]byte](t testing.TB, path string, got T) {
	t.Helper()
	want, err := os.ReadFile(path)
	if *Update {
		if err == nil && string(want) == string(got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("writing golden file: %v", err)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("writing golden file: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("reading golden file: %v (go test -update writes it)", err)
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the output (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}
