package command

import (
	"github.com/rig-iac/rig/internal/hclfmt"
)

// runFmt rewrites configuration files in the canonical style. The exit
// status is 0, 2 when a file could not be read, parsed or written, or 3
// with -check when a file is not formatted, as Terraform's.
func runFmt(m *Meta, args []string) int {
	fs := m.flagSet("fmt")
	var o hclfmt.FilesOptions
	fs.BoolVar(&o.List, "list", true, "Don't list files whose formatting differs (always disabled if using standard input).")
	fs.BoolVar(&o.Write, "write", true, "Don't write to source files (always disabled if using standard input or -check).")
	fs.BoolVar(&o.Diff, "diff", false, "Display diffs of formatting changes.")
	fs.BoolVar(&o.Check, "check", false, "Check if the input is formatted. Exit status will be 0 if all input is properly formatted and 3 otherwise.")
	fs.BoolVar(&o.Recursive, "recursive", false, "Also process files in subdirectories. By default, only the given directory (or current directory) is processed.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if o.Check {
		o.Write = false
	}
	targets := fs.Args()
	if len(targets) == 0 {
		targets = []string{"."}
	}
	f := hclfmt.NewFiles(o, m.In, m.Out)
	for _, t := range targets {
		if t == "-" {
			f.Stdin()
			continue
		}
		f.Target(t)
	}
	m.sources = f.Sources
	m.showDiagnostics(f.Diags)
	switch {
	case f.Diags.HasErrors():
		return 2
	case o.Check && f.Changed:
		return 3
	}
	return 0
}
