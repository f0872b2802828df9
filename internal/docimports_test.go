package internal

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rigPackage matches a rig package named in a package doc's imports
// sentence: its path from the module's root.
var rigPackage = regexp.MustCompile(`\b(?:internal|bench|cmd)(?:/[a-z0-9_]+)+`)

// importsSentence returns the sentence of doc that says what its package
// imports ("It imports …", "It may import …"), or "".
func importsSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	start := -1
	for _, lead := range []string{"It imports", "It may import"} {
		if i := strings.Index(doc, lead); i >= 0 && (start < 0 || i < start) {
			start = i
		}
	}
	if start < 0 {
		return ""
	}
	s := doc[start:]
	for i := 0; i < len(s); i++ {
		if s[i] == '.' && (i+1 == len(s) || s[i+1] == ' ') {
			return s[:i+1]
		}
	}
	return s
}

// packageDoc returns the package comment of the Go package in dir (from
// whichever non-test file has it).
func packageDoc(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
	}
	return doc.String()
}

// TestDocImports checks that each package's doc says what it imports, in
// a sentence that names exactly the rig packages internal/deps_test.go
// allows it (by their paths; none for "no rig package" or "only the
// standard library"), so that the two never disagree.
func TestDocImports(t *testing.T) {
	for pkg, allowed := range allowedImports {
		if len(allowed) == 1 && allowed[0] == "*" {
			continue
		}
		dir := filepath.Join("..", filepath.FromSlash(pkg))
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		sentence := importsSentence(packageDoc(t, dir))
		if sentence == "" {
			t.Errorf("%s: its package doc does not say what it imports (\"It imports …\")", pkg)
			continue
		}
		var named []string
		for _, m := range rigPackage.FindAllString(sentence, -1) {
			if !slices.Contains(named, m) {
				named = append(named, m)
			}
		}
		slices.Sort(named)
		want := slices.Sorted(slices.Values(allowed))
		if !slices.Equal(named, want) {
			t.Errorf("%s: its package doc says\n\t%s\nwhich names %v; internal/deps_test.go allows %v", pkg, sentence, named, want)
		}
	}
}
