package command

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
	"github.com/rig-iac/rig/internal/hclfmt"
)

// fmtExtensions are the suffixes of the files fmt rewrites.
var fmtExtensions = []string{".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl", ".tfmock.hcl"}

// fmtOptions are fmt's flags.
type fmtOptions struct {
	list, write, diff, check, recursive bool
}

// runFmt rewrites configuration files in the canonical style. The exit
// status is 0, 2 when a file could not be read, parsed or written, or 3
// with -check when a file is not formatted, as Terraform's.
func runFmt(m *Meta, args []string) int {
	fs := m.flagSet("fmt")
	var o fmtOptions
	fs.BoolVar(&o.list, "list", true, "Don't list files whose formatting differs (always disabled if using standard input).")
	fs.BoolVar(&o.write, "write", true, "Don't write to source files (always disabled if using standard input or -check).")
	fs.BoolVar(&o.diff, "diff", false, "Display diffs of formatting changes.")
	fs.BoolVar(&o.check, "check", false, "Check if the input is formatted. Exit status will be 0 if all input is properly formatted and 3 otherwise.")
	fs.BoolVar(&o.recursive, "recursive", false, "Also process files in subdirectories. By default, only the given directory (or current directory) is processed.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if o.check {
		o.write = false
	}
	targets := fs.Args()
	if len(targets) == 0 {
		targets = []string{"."}
	}
	f := &formatter{m: m, opts: o, sources: map[string][]byte{}}
	for _, t := range targets {
		if t == "-" {
			f.stdin()
			continue
		}
		f.target(t)
	}
	m.sources = f.sources
	m.showDiagnostics(f.diags)
	switch {
	case f.diags.HasErrors():
		return 2
	case o.check && f.changed:
		return 3
	}
	return 0
}

// formatter runs fmt over its targets, collecting the diagnostics.
type formatter struct {
	m       *Meta
	opts    fmtOptions
	sources map[string][]byte
	diags   diag.Diagnostics
	changed bool // some file is not formatted
}

// stdin formats standard input to standard output: the result, or with
// -diff or -check only the diff or the exit status.
func (f *formatter) stdin() {
	src, err := io.ReadAll(f.m.In)
	if err != nil {
		f.diags = f.diags.Append(diag.Errorf("Failed to read from standard input", "%s", err))
		return
	}
	const name = "<stdin>"
	out, ok := f.format(name, src)
	if !ok {
		return
	}
	if f.opts.diff {
		hclfmt.WriteUnifiedDiff(f.m.Out, name, src, out)
	}
	if !f.opts.check && !f.opts.diff {
		f.m.Out.Write(out)
		if len(out) == 0 || out[len(out)-1] != '\n' {
			fmt.Fprintln(f.m.Out)
		}
	}
}

// target formats a file or the files of a directory (and of its
// subdirectories with -recursive, hidden ones excepted).
func (f *formatter) target(path string) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.diags = f.diags.Append(diag.Errorf("No file or directory at "+path, ""))
		return
	case err != nil:
		f.diags = f.diags.Append(diag.Errorf("Failed to read "+path, "%s", err))
		return
	case !info.IsDir():
		if !hasFmtExtension(path) {
			f.diags = f.diags.Append(diag.Errorf("Only .tf, .tofu, .tfvars, and .tftest.hcl files can be processed with rig fmt", ""))
			return
		}
		f.file(path)
		return
	}
	f.dir(path)
}

func (f *formatter) dir(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		f.diags = f.diags.Append(diag.Errorf("Failed to read directory "+dir, "%s", err))
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if f.opts.recursive && !strings.HasPrefix(e.Name(), ".") {
				f.dir(path)
			}
		case hasFmtExtension(e.Name()):
			f.file(path)
		}
	}
}

// file formats one file: it lists, writes and shows the diff of a file
// whose formatting changes, as the options say.
func (f *formatter) file(path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		f.diags = f.diags.Append(diag.Errorf("Failed to read file", "%s", err))
		return
	}
	out, ok := f.format(path, src)
	if !ok || bytes.Equal(src, out) {
		return
	}
	if f.opts.list {
		fmt.Fprintln(f.m.Out, path)
	}
	if f.opts.write {
		if err := os.WriteFile(path, out, 0o644); err != nil {
			f.diags = f.diags.Append(diag.Errorf("Failed to write file", "%s", err))
			return
		}
	}
	if f.opts.diff {
		hclfmt.WriteUnifiedDiff(f.m.Out, filepath.ToSlash(path), src, out)
	}
}

// format formats src, recording whether it changes and its syntax errors.
func (f *formatter) format(name string, src []byte) ([]byte, bool) {
	f.sources[name] = src
	out, ds := hclfmt.Source(src, name)
	f.diags = f.diags.Append(ds)
	if ds.HasErrors() {
		return nil, false
	}
	if !bytes.Equal(src, out) {
		f.changed = true
	}
	return out, true
}

func hasFmtExtension(name string) bool {
	for _, ext := range fmtExtensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
