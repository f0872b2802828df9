package ui

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rig-iac/rig/internal/diag"
)

// maxDiagnosticsPerFile is how many diagnostics of one file the renderers
// show; the rest are counted in one closing diagnostic per file, so that a
// binary or badly broken file does not flood the terminal.
const maxDiagnosticsPerFile = 20

// printable returns s with what a terminal would act on rather than show
// written as escapes: control characters other than tab and newline
// (escape sequences, carriage returns, C1 controls), bidirectional
// overrides, and bytes that are not UTF-8.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unprintable(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && unprintable(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unprintable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func unprintable(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// printableDiagnostic returns d with its texts made printable; source
// snippets are made printable as they are written.
func printableDiagnostic(d diag.Diagnostic) diag.Diagnostic {
	d.Summary, d.Detail = printable(d.Summary), printable(d.Detail)
	if a := d.AddressText(); printable(a) != a {
		d.Address = printedAddress(printable(a))
	}
	return d
}

// printedAddress is an address made printable (an instance key may hold
// any character).
type printedAddress string

// String implements diag.Address.
func (a printedAddress) String() string { return string(a) }

// limitPerFile returns ds with at most maxDiagnosticsPerFile diagnostics of
// each source file, in their order, followed by one diagnostic per file
// that had more, saying how many are not shown. The result is a new slice.
func limitPerFile(ds diag.Diagnostics) diag.Diagnostics {
	type hidden struct{ errors, warnings int }
	shown := map[string]int{}
	more := map[string]*hidden{}
	out := make(diag.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if d.Subject == nil {
			out = append(out, d)
			continue
		}
		f := d.Subject.Filename
		if shown[f] < maxDiagnosticsPerFile {
			shown[f]++
			out = append(out, d)
			continue
		}
		h := more[f]
		if h == nil {
			h = &hidden{}
			more[f] = h
		}
		if d.Severity == diag.Error {
			h.errors++
		} else {
			h.warnings++
		}
	}
	files := make([]string, 0, len(more))
	for f := range more {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		h := more[f]
		var what string
		switch {
		case h.warnings == 0:
			what = fmt.Sprintf("%d more %s", h.errors, plural(h.errors, "error", "errors"))
		case h.errors == 0:
			what = fmt.Sprintf("%d more %s", h.warnings, plural(h.warnings, "warning", "warnings"))
		default:
			what = fmt.Sprintf("%d more %s and %d %s", h.errors, plural(h.errors, "error", "errors"), h.warnings, plural(h.warnings, "warning", "warnings"))
		}
		sev := diag.Warning
		if h.errors > 0 {
			sev = diag.Error
		}
		out = append(out, diag.Diagnostic{
			Severity: sev,
			Summary:  fmt.Sprintf("%s in %s", what, f),
			Detail:   fmt.Sprintf("rig shows the first %d diagnostics of each file. Fix those above and run again to see the rest.", maxDiagnosticsPerFile),
		})
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
