package workdir

import (
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// ParseTargetFiles parses the files given to -target-file or -exclude-file
// (flag): an address a line; blank lines and lines starting with # are
// skipped. A bad address is reported at its file and line, shown with it
// (the files read go into sources).
func ParseTargetFiles(paths []string, flag string, sources map[string][]byte) ([]addrs.Target, diag.Diagnostics) {
	var ds diag.Diagnostics
	var out []addrs.Target
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			ds = ds.Append(diag.Errorf("Failed to read "+flag+" file", "Reading %s: %s.", path, err))
			continue
		}
		sources[path] = b
		offset := 0
		for i, line := range strings.Split(string(b), "\n") {
			start := offset
			offset += len(line) + 1
			text := strings.TrimSpace(line)
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			t, err := addrs.ParseTargetStr(text)
			if err != nil {
				at := strings.Index(line, text)
				rng := hcl.Range{Filename: path,
					Start: hcl.Pos{Line: i + 1, Column: at + 1, Byte: start + at},
					End:   hcl.Pos{Line: i + 1, Column: at + 1 + len(text), Byte: start + at + len(text)}}
				ds = ds.Append(diag.At(rng, "Invalid "+flag+" address", err.Error()))
				continue
			}
			out = append(out, t)
		}
	}
	return out, ds
}

// PlanSelection is what the planning options select, as given: the
// addresses of -replace, -target and -exclude, the files of -target-file
// and -exclude-file, and the actions -invoke names.
type PlanSelection struct {
	Replace, Targets, Excludes []string
	TargetFiles, ExcludeFiles  []string
	Invoke                     []string
}

// Parse parses the selection into the PlanOptions fields it sets
// (Replace, Targets, Excludes, Invoke); the files read go into sources,
// for the snippets of diagnostics.
func (sel PlanSelection) Parse(sources map[string][]byte) (PlanOptions, diag.Diagnostics) {
	var opts PlanOptions
	var ds diag.Diagnostics
	for _, r := range sel.Replace {
		addr, err := addrs.ParseAbsResourceInstanceStr(r)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid replace address", "%s", err))
			continue
		}
		opts.Replace = append(opts.Replace, addr)
	}
	for _, list := range []struct {
		flag         string
		given, files []string
		into         *[]addrs.Target
	}{{"target", sel.Targets, sel.TargetFiles, &opts.Targets}, {"exclude", sel.Excludes, sel.ExcludeFiles, &opts.Excludes}} {
		for _, s := range list.given {
			t, err := addrs.ParseTargetStr(s)
			if err != nil {
				ds = ds.Append(diag.Errorf("Invalid "+list.flag+" address", "%s", err))
				continue
			}
			*list.into = append(*list.into, t)
		}
		fromFiles, more := ParseTargetFiles(list.files, list.flag, sources)
		ds = ds.Append(more)
		*list.into = append(*list.into, fromFiles...)
	}
	for _, s := range sel.Invoke {
		a, err := addrs.ParseAbsActionInstanceStr(s)
		if err != nil {
			ds = ds.Append(diag.Errorf(`Invalid target "`+s+`"`, "%s", err))
			continue
		}
		opts.Invoke = append(opts.Invoke, a)
	}
	return opts, ds
}
