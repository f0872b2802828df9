package hclfmt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// fmtExtensions are the suffixes of the files fmt rewrites.
var fmtExtensions = []string{".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl", ".tfmock.hcl"}

// FilesOptions are fmt's options: list the files whose formatting
// changes, write them, show the diff, only check (exit status 3), and
// descend into subdirectories.
type FilesOptions struct {
	List, Write, Diff, Check, Recursive bool
}

// Files runs fmt over its targets (Stdin, Target), reading standard input
// from in and writing the listed names, diffs and formatted input to out.
type Files struct {
	in   io.Reader
	out  io.Writer
	opts FilesOptions
	// Sources are the files read, for the snippets of Diags; Diags are the
	// problems found; Changed says some file is not formatted.
	Sources map[string][]byte
	Diags   diag.Diagnostics
	Changed bool
}

// NewFiles returns the formatter of fmt's targets with opts.
func NewFiles(opts FilesOptions, in io.Reader, out io.Writer) *Files {
	return &Files{in: in, out: out, opts: opts, Sources: map[string][]byte{}}
}

// Stdin formats standard input to standard output: the result, or with
// -diff or -check only the diff or the exit status.
func (f *Files) Stdin() {
	src, err := io.ReadAll(f.in)
	if err != nil {
		f.Diags = f.Diags.Append(diag.Errorf("Failed to read from standard input", "%s", err))
		return
	}
	const name = "<stdin>"
	out, ok := f.format(name, src)
	if !ok {
		return
	}
	if f.opts.Diff {
		WriteUnifiedDiff(f.out, name, src, out)
	}
	if !f.opts.Check && !f.opts.Diff {
		f.out.Write(out)
		if len(out) == 0 || out[len(out)-1] != '\n' {
			fmt.Fprintln(f.out)
		}
	}
}

// Target formats a file or the files of a directory (and of its
// subdirectories with -recursive, hidden ones excepted).
func (f *Files) Target(path string) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Diags = f.Diags.Append(diag.Errorf("Invalid file or directory path", "No file or directory at %s", path))
		return
	case err != nil:
		f.Diags = f.Diags.Append(diag.Errorf("Failed to read "+path, "%s", err))
		return
	case !info.IsDir():
		if !HasExtension(path) {
			f.Diags = f.Diags.Append(diag.Errorf("Only .tf, .tofu, .tfvars, and .tftest.hcl files can be processed with rig fmt", ""))
			return
		}
		f.file(path)
		return
	}
	f.dir(path)
}

func (f *Files) dir(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		f.Diags = f.Diags.Append(diag.Errorf("Failed to read directory "+dir, "%s", err))
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if f.opts.Recursive && !strings.HasPrefix(e.Name(), ".") {
				f.dir(path)
			}
		case HasExtension(e.Name()):
			f.file(path)
		}
	}
}

// file formats one file: it lists, writes and shows the diff of a file
// whose formatting changes, as the options say.
func (f *Files) file(path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		f.Diags = f.Diags.Append(diag.Errorf("Failed to read file", "%s", err))
		return
	}
	out, ok := f.format(path, src)
	if !ok || bytes.Equal(src, out) {
		return
	}
	if f.opts.List {
		fmt.Fprintln(f.out, path)
	}
	if f.opts.Write {
		if err := os.WriteFile(path, out, 0o644); err != nil {
			f.Diags = f.Diags.Append(diag.Errorf("Failed to write file", "%s", err))
			return
		}
	}
	if f.opts.Diff {
		WriteUnifiedDiff(f.out, filepath.ToSlash(path), src, out)
	}
}

// format formats src, recording whether it changes and its syntax errors.
func (f *Files) format(name string, src []byte) ([]byte, bool) {
	f.Sources[name] = src
	out, ds := Source(src, name)
	f.Diags = f.Diags.Append(ds)
	if ds.HasErrors() {
		return nil, false
	}
	if !bytes.Equal(src, out) {
		f.Changed = true
	}
	return out, true
}

// HasExtension reports whether name ends in a suffix of the files fmt
// rewrites (.tf, .tofu, .tfvars and the test files').
func HasExtension(name string) bool {
	for _, ext := range fmtExtensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
