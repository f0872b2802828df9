package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/hclfmt"
)

// fmtCorpus copies the inputs of testdata/fmt into a new directory and
// returns it with the names of the inputs, sorted.
func fmtCorpus(t *testing.T) (dir string, names []string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "fmt"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, e := range entries {
		if !hclfmt.HasExtension(e.Name()) {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata", "fmt", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, e.Name(), string(src))
		names = append(names, e.Name())
	}
	if len(names) < 30 {
		t.Fatalf("testdata/fmt has %d inputs", len(names))
	}
	return dir, names
}

// TestFmtCorpus checks that rig fmt rewrites each file of testdata/fmt
// into exactly what terraform fmt writes (NAME.golden), and lists the
// files it changed.
func TestFmtCorpus(t *testing.T) {
	dir, names := fmtCorpus(t)
	r := rig(t, dir, "fmt")
	var changed []string
	for _, name := range names {
		in, _ := os.ReadFile(filepath.Join("testdata", "fmt", name))
		want, err := os.ReadFile(filepath.Join("testdata", "fmt", name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if string(in) != string(want) {
			changed = append(changed, name)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("rig fmt %s (-terraform fmt +rig fmt):\n%s", name, diff)
		}
	}
	if want := strings.Join(changed, "\n") + "\n"; r.code != 0 || r.stderr != "" || r.stdout != want {
		t.Errorf("rig fmt: exit %d, want 0 and the changed files listed\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "fmt", "-check"); r.code != 0 || r.stdout != "" {
		t.Errorf("rig fmt -check after rig fmt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestFmtCheckAndDiff checks that -check and -diff leave the files as they
// are; the diff of the corpus is the one terraform fmt -diff prints.
func TestFmtCheckAndDiff(t *testing.T) {
	dir, names := fmtCorpus(t)
	r := rig(t, dir, "fmt", "-check", "-list=false")
	if r.code != 3 || r.stdout != "" {
		t.Errorf("rig fmt -check -list=false: exit %d, want 3 and no output\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "fmt", "-diff", "-check")
	if r.code != 3 {
		t.Errorf("rig fmt -diff -check: exit %d, want 3\n%s", r.code, r.stderr)
	}
	golden(t, "fmtcli/corpus-diff", r.stdout)
	for _, name := range names {
		in, _ := os.ReadFile(filepath.Join("testdata", "fmt", name))
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if string(in) != string(got) {
			t.Errorf("rig fmt -check changed %s", name)
		}
	}
	if r := rig(t, dir, "fmt", "-write=false", "crlf.tf"); r.code != 0 || r.stdout != "crlf.tf\n" {
		t.Errorf("rig fmt -write=false crlf.tf: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestFmtTargets(t *testing.T) {
	unformatted := "a=1\n"
	tests := []struct {
		name      string
		files     map[string]string
		args      []string
		stdin     string
		code      int
		stdout    string
		stderr    string   // a part of stderr
		formatted []string // files formatted afterwards
	}{
		{name: "directory", files: map[string]string{"a.tf": unformatted, "sub/b.tf": unformatted, "c.txt": unformatted},
			args: []string{"fmt"}, stdout: "a.tf\n", formatted: []string{"a.tf"}},
		{name: "recursive", files: map[string]string{"a.tf": unformatted, "sub/b.tfvars": unformatted, "sub/c.tofu": unformatted, ".hidden/d.tf": unformatted, "z.tftest.hcl": "a = 1\n"},
			args: []string{"fmt", "-recursive"}, stdout: "a.tf\nsub/b.tfvars\nsub/c.tofu\n", formatted: []string{"a.tf", "sub/b.tfvars", "sub/c.tofu"}},
		{name: "named file and directory", files: map[string]string{"a.tf": unformatted, "sub/b.tf": unformatted},
			args: []string{"fmt", "-check", "sub", "a.tf"}, code: 3, stdout: "sub/b.tf\na.tf\n"},
		{name: "stdin", args: []string{"fmt", "-"}, stdin: "resource x y {\na=\"${var.b}\"\n}", stdout: "resource \"x\" \"y\" {\n  a = var.b\n}\n"},
		{name: "stdin diff", args: []string{"fmt", "-diff", "-"}, stdin: "a=1\n", stdout: "--- old/<stdin>\n+++ new/<stdin>\n@@ -1 +1 @@\n-a=1\n+a = 1\n"},
		{name: "stdin check", args: []string{"fmt", "-check", "-"}, stdin: "a=1\n", code: 3},
		{name: "syntax error", files: map[string]string{"bad.tf": "a = {\n", "ok.tf": unformatted},
			args: []string{"fmt", "-no-color"}, code: 2, stdout: "ok.tf\n", stderr: "Error: Missing expression\n\n  on bad.tf line 2:", formatted: []string{"ok.tf"}},
		{name: "stdin syntax error", args: []string{"fmt", "-no-color", "-"}, stdin: "a = {\n", code: 2, stderr: "on <stdin> line 2:"},
		{name: "no such file", args: []string{"fmt", "-no-color", "nosuch.tf"}, code: 2, stderr: "Error: Invalid file or directory path\n\nNo file or directory at nosuch.tf"},
		{name: "other extension", files: map[string]string{"x.hcl": unformatted}, args: []string{"fmt", "-no-color", "x.hcl"}, code: 2,
			stderr: "Error: Only .tf, .tofu, .tfvars, and .tftest.hcl files can be processed with rig fmt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, tt.files)
			r := rigInput(t, dir, tt.stdin, tt.args...)
			if r.code != tt.code || r.stdout != tt.stdout || !strings.Contains(r.stderr, tt.stderr) || (tt.stderr == "" && r.stderr != "") {
				t.Errorf("rig %s: exit %d, want %d\nstdout: %q, want %q\nstderr: %s", tt.args, r.code, tt.code, r.stdout, tt.stdout, r.stderr)
			}
			for name, src := range tt.files {
				got, _ := os.ReadFile(filepath.Join(dir, name))
				if slices.Contains(tt.formatted, name) != (string(got) != src) {
					t.Errorf("%s: formatted %v, want %v:\n%s", name, string(got) != src, slices.Contains(tt.formatted, name), got)
				}
			}
		})
	}
}
