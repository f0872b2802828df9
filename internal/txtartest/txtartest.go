package txtartest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/diag"
	"golang.org/x/tools/txtar"
)

// Run runs fn as a subtest, named for the file, on each archive pattern
// (a filepath.Glob pattern) matches; it fails when none does.
func Run(t *testing.T, pattern string, fn func(t *testing.T, path string, ar *txtar.Archive)) {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios match %s: %v", pattern, err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, path, ar)
		})
	}
}

// Check compares got with the section name of archive ar, read from path,
// and reports the difference (-want +got). With update set it writes got
// into the section instead, adding the section when ar has none.
func Check(t testing.TB, path string, ar *txtar.Archive, name, got string, update bool) {
	t.Helper()
	i := Section(ar, name)
	if update {
		if i < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: name})
			i = len(ar.Files) - 1
		}
		ar.Files[i].Data = []byte(got)
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if i < 0 {
		t.Fatalf("%s has no %s section (run with -update); got:\n%s", path, name, got)
	}
	if diff := cmp.Diff(string(ar.Files[i].Data), got); diff != "" {
		t.Errorf("%s: %s (-want +got):\n%s", path, name, diff)
	}
}

// Files returns the sections of ar as text by name, but those named in
// except: the files of a scenario, without its want sections.
func Files(ar *txtar.Archive, except ...string) map[string]string {
	files := make(map[string]string, len(ar.Files))
	for _, f := range ar.Files {
		if !slices.Contains(except, f.Name) {
			files[f.Name] = string(f.Data)
		}
	}
	return files
}

// ReadFiles parses the archive at path and returns its sections as Files
// does; an archive that cannot be read fails the test.
func ReadFiles(t testing.TB, path string, except ...string) map[string]string {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Files(ar, except...)
}

// Section returns the index of ar's section name, or -1.
func Section(ar *txtar.Archive, name string) int {
	for i, f := range ar.Files {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Diagnostics renders ds one a line, as the want sections of
// diagnostics read: "severity file:line: summary", or "severity summary"
// for a diagnostic without a source range.
func Diagnostics(ds diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		if d.Subject != nil {
			fmt.Fprintf(&b, "%s %s:%d: %s\n", d.Severity, d.Subject.Filename, d.Subject.Start.Line, d.Summary)
		} else {
			fmt.Fprintf(&b, "%s %s\n", d.Severity, d.Summary)
		}
	}
	return b.String()
}
