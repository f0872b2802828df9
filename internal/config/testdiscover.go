package config

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// DefaultTestDirectory is the directory, relative to the module, whose
// test files are found besides the module's own (-test-directory changes it).
const DefaultTestDirectory = "tests"

// testFileExts are the suffixes of test files; an OpenTofu one takes the
// place of the Terraform one of the same name.
var testFileExts = []string{".tftest.hcl", ".tftest.json", ".tofutest.hcl", ".tofutest.json"}

// IsTestFile reports whether name is a test file's name.
func IsTestFile(name string) bool { return testFileExt(name) != "" }

func testFileExt(name string) string {
	for _, ext := range testFileExts {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// LoadTestFiles loads the test files of the module in dir: those of dir
// itself and those of testDir, a directory relative to dir (no
// subdirectories of either). A .tofutest.hcl (.tofutest.json) file hides
// the .tftest.hcl (.tftest.json) file of the same name beside it, as in
// OpenTofu. The files are returned sorted by name, the order they run in.
// The mock data files a mock_provider's source names (a directory
// relative to dir) are read into it.
// A testDir other than DefaultTestDirectory that does not exist is a
// warning.
func LoadTestFiles(dir, testDir string) ([]*TestFile, diag.Diagnostics) {
	var ds diag.Diagnostics
	var rels []string
	list := func(sub string) error {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(sub)))
		if err != nil {
			return err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && !isIgnoredFile(e.Name()) && IsTestFile(e.Name()) {
				names = append(names, e.Name())
			}
		}
		slices.Sort(names)
		for _, n := range preferTofuTestFiles(names) {
			rels = append(rels, path.Join(sub, n))
		}
		return nil
	}
	if err := list("."); err != nil {
		return nil, ds.Append(diag.Errorf("Failed to read module directory", "Module directory %s does not exist or cannot be read.", dir))
	}
	if testDir != "" && path.Clean(filepath.ToSlash(testDir)) != "." {
		sub := path.Clean(filepath.ToSlash(testDir))
		if err := list(sub); err != nil {
			switch {
			case errors.Is(err, fs.ErrNotExist) && sub != DefaultTestDirectory:
				ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Test directory does not exist",
					Detail: "Requested test directory " + path.Join(filepath.ToSlash(dir), sub) + " does not exist."})
			case !errors.Is(err, fs.ErrNotExist):
				return nil, ds.Append(diag.Errorf("Failed to read test directory", "Test directory %s could not be read: %s.", sub, err))
			}
		}
	}
	slices.Sort(rels)
	rels = slices.Compact(rels)
	files := make([]*TestFile, 0, len(rels))
	for _, rel := range rels {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		src, err := os.ReadFile(p)
		if err != nil {
			ds = ds.Append(diag.Errorf("Failed to read file", "The file %q could not be read: %s.", p, err))
			continue
		}
		tf, more := ParseTestFile(rel, p, src)
		ds = ds.Append(more)
		for _, key := range slices.Sorted(maps.Keys(tf.Mocks)) {
			if mp := tf.Mocks[key]; mp.Source != "" {
				ds = ds.Append(mp.LoadMockSource(filepath.Join(dir, filepath.FromSlash(mp.Source))))
			}
		}
		files = append(files, tf)
	}
	return files, ds
}

// preferTofuTestFiles returns the sorted names without each Terraform test
// file whose OpenTofu alternative is among them.
func preferTofuTestFiles(names []string) []string {
	out := names[:0:0]
	for _, n := range names {
		ext := testFileExt(n)
		if strings.HasPrefix(ext, ".tftest") {
			alt := strings.TrimSuffix(n, ext) + strings.Replace(ext, ".tftest", ".tofutest", 1)
			if _, found := slices.BinarySearch(names, alt); found {
				continue
			}
		}
		out = append(out, n)
	}
	return out
}
