package lang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestFileset(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt", "c.md", "files/hello.txt", "files/world.txt", "files/sub/deep.txt", "files/sub/x.md"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("hello"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set := func(ss ...string) cty.Value {
		vs := make([]cty.Value, len(ss))
		for i, s := range ss {
			vs[i] = cty.StringVal(s)
		}
		return cty.SetVal(vs)
	}
	runFuncCases(t, &Scope{Data: testData(), FileDir: dir}, []funcCase{
		{name: "star", src: `fileset(".", "*.txt")`, want: set("a.txt", "b.txt")},
		{name: "in a directory", src: `fileset(".", "files/*.txt")`, want: set("files/hello.txt", "files/world.txt")},
		{name: "alternatives", src: `fileset(".", "files/{hello,world}.txt")`, want: set("files/hello.txt", "files/world.txt")},
		{name: "relative to path", src: `fileset("files", "*")`, want: set("hello.txt", "world.txt")},
		{name: "doublestar", src: `fileset("files", "**")`, want: set("hello.txt", "sub/deep.txt", "sub/x.md", "world.txt")},
		{name: "doublestar then name", src: `fileset(".", "**/*.md")`, want: set("c.md", "files/sub/x.md")},
		{name: "question mark and class", src: `fileset(".", "[ab].tx?")`, want: set("a.txt", "b.txt")},
		{name: "absolute path", src: `fileset("` + filepath.ToSlash(filepath.Join(dir, "files", "sub")) + `", "*.txt")`, want: set("deep.txt")},
		{name: "directories are left out", src: `fileset(".", "*")`, want: set("a.txt", "b.txt", "c.md")},
		{name: "no match", src: `fileset(".", "*.nope")`, want: cty.SetValEmpty(cty.String)},
		{name: "missing directory", src: `fileset("nowhere", "*")`, want: cty.SetValEmpty(cty.String)},
		{name: "unknown pattern", src: `fileset(".", var.unknown)`, want: cty.UnknownVal(cty.Set(cty.String)).RefineNotNull()},
		{name: "sensitive pattern", src: `fileset(".", sensitive("*.md"))`, want: set("c.md").Mark(Sensitive)},
		{name: "bad pattern", src: `fileset(".", "[")`, summary: callErr,
			detail: `Call to function "fileset" failed: failed to glob pattern "` + filepath.Join(dir, "[") + `": syntax error in pattern.`},
		{name: "bad sensitive pattern", src: `fileset(".", sensitive("["))`, summary: callErr,
			detail: `Call to function "fileset" failed: failed to glob pattern (sensitive value): syntax error in pattern.`},
		{name: "null path", src: `fileset(null, "*")`, summary: argErr, detail: `Invalid value for "path" parameter: argument must not be null.`},

		{name: "filebase64sha256", src: `filebase64sha256("a.txt")`, want: cty.StringVal("LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=")},
		{name: "filebase64sha512", src: `filebase64sha512("files/hello.txt")`, want: cty.StringVal("m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw==")},
		{name: "filebase64sha256 missing", src: `filebase64sha256("nope")`, summary: argErr,
			detail: `Invalid value for "path" parameter: no file exists at "nope"; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource.`},
	})
}
