package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// The file functions as OpenTofu 1.12 has them: templatefile may call
// templatefile (a template including another), down to 1024 nested calls,
// the error listing the innermost call sites up to the first repeated one;
// a file that is not UTF-8 text, a directory where a file is wanted, are
// errors in OpenTofu's words.
func TestFileFunctionsAsOpenTofu(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"outer.tmpl":     `<${templatefile("inner.tmpl", {who = name})}>`,
		"inner.tmpl":     `hello ${who}`,
		"recursive.tmpl": `${templatefile("recursive.tmpl", {})}`,
		"top.tmpl":       `<${templatefile("ping.tmpl", {})}>`,
		"ping.tmpl":      `${templatefile("pong.tmpl", {})}`,
		"pong.tmpl":      `x ${templatefile("ping.tmpl", {})}`,
		"binary.dat":     "\xff\xfe",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Scope{Data: testData(), FileDir: dir}

	got, diags := s.EvalExpr(parseExpr(t, `templatefile("outer.tmpl", {name = "Ann"})`), cty.DynamicPseudoType)
	if diags.HasErrors() || !got.RawEquals(cty.StringVal("<hello Ann>")) {
		t.Errorf("nested templatefile = %#v, %v", got, diags.Err())
	}

	tests := []struct {
		src, summary, detail string
	}{
		// The innermost call sites, up to the first repeated one.
		{`templatefile("recursive.tmpl", {})`, "Error in function call", `Call to function "templatefile" failed: maximum recursion depth 1024 reached in recursive.tmpl:1,3-16, recursive.tmpl:1,3-16 ... .`},
		{`templatefile("top.tmpl", {})`, "Error in function call", `Call to function "templatefile" failed: maximum recursion depth 1024 reached in pong.tmpl:1,5-18, ping.tmpl:1,3-16, pong.tmpl:1,5-18 ... .`},
		{`file("binary.dat")`, "Error in function call", `Call to function "file" failed: contents of "binary.dat" are not valid UTF-8; use the filebase64 function`},
		{`templatefile("binary.dat", {})`, "Error in function call", `Call to function "templatefile" failed: contents of "binary.dat" are not valid UTF-8`},
		{`file("sub")`, "Invalid function argument", `Invalid value for "path" parameter: failed to read file: read sub: is a directory.`},
		{`fileexists("sub")`, "Error in function call", `Call to function "fileexists" failed: "sub" is a directory, not a file.`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, diags := s.EvalExpr(parseExpr(t, tt.src), cty.DynamicPseudoType)
			if len(diags) != 1 || diags[0].Summary != tt.summary || !strings.HasPrefix(diags[0].Detail, tt.detail) {
				t.Fatalf("diagnostics = %v, want one %q starting %q", diags, tt.summary, tt.detail)
			}
		})
	}
}

// TF_TEMPLATE_RECURSION_DEPTH sets how deep templatefile calls may nest,
// as in OpenTofu; a value that is not an integer is the call's error.
func TestTemplateRecursionDepthFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "recursive.tmpl"), []byte(`${templatefile("recursive.tmpl", {})}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Scope{Data: testData(), FileDir: dir}
	for _, tt := range []struct{ value, detail string }{
		{"3", `Call to function "templatefile" failed: maximum recursion depth 3 reached in recursive.tmpl:1,3-16, recursive.tmpl:1,3-16 ... .`},
		{"x", `Call to function "templatefile" failed: invalid value for TF_TEMPLATE_RECURSION_DEPTH: strconv.Atoi: parsing "x": invalid syntax.`},
		{"-1", `Call to function "templatefile" failed: maximum recursion depth -1 reached.`},
	} {
		t.Setenv("TF_TEMPLATE_RECURSION_DEPTH", tt.value)
		_, diags := s.EvalExpr(parseExpr(t, `templatefile("recursive.tmpl", {})`), cty.DynamicPseudoType)
		if len(diags) != 1 || diags[0].Detail != tt.detail {
			t.Errorf("TF_TEMPLATE_RECURSION_DEPTH=%s: diagnostics %v, want one with detail %q", tt.value, diags, tt.detail)
		}
	}
}
