package ui

import (
	"fmt"
	"io"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// CondenseOptions say how a list of diagnostics is shortened for people,
// as OpenTofu's -consolidate-warnings, -consolidate-errors and
// -compact-warnings options do. The zero value shows every diagnostic.
type CondenseOptions struct {
	// ConsolidateWarnings shows the warnings with a source range that share
	// a summary once, at the first, its detail ending with how many more
	// there are ("(and 3 more similar warnings elsewhere)").
	ConsolidateWarnings bool
	// ConsolidateErrors does the same for errors.
	ConsolidateErrors bool
	// CompactWarnings shows a list that holds only warnings as one line per
	// summary with where it occurs (RenderWarningsCompact).
	CompactWarnings bool
}

// condensed is one diagnostic as shown, with the source ranges of those
// consolidated into it (the first is its own).
type condensed struct {
	d      diag.Diagnostic
	places int // how many diagnostics it stands for
}

// condense groups ds as opts say, keeping the order of first appearance.
func condense(ds diag.Diagnostics, opts CondenseOptions) []condensed {
	out := make([]condensed, 0, len(ds))
	group := map[string]int{} // severity and summary → index in out
	for _, d := range ds {
		consolidate := d.Subject != nil && !d.Apart &&
			(d.Severity == diag.Warning && opts.ConsolidateWarnings || d.Severity == diag.Error && opts.ConsolidateErrors)
		if !consolidate {
			out = append(out, condensed{d: d, places: 1})
			continue
		}
		key := d.Severity.String() + "\x00" + d.Summary + "\x00" + d.GroupKey
		if i, ok := group[key]; ok {
			out[i].places++
			continue
		}
		group[key] = len(out)
		out = append(out, condensed{d: d, places: 1})
	}
	return out
}

// Condense returns ds with the diagnostics opts consolidates replaced by
// the first of each group, its detail saying how many more there were.
// ds is not modified.
func Condense(ds diag.Diagnostics, opts CondenseOptions) diag.Diagnostics {
	if !opts.ConsolidateWarnings && !opts.ConsolidateErrors {
		return ds
	}
	groups := condense(ds, opts)
	out := make(diag.Diagnostics, 0, len(groups))
	for _, g := range groups {
		d := g.d
		if more := g.places - 1; more > 0 {
			what := "warning"
			if d.Severity == diag.Error {
				what = "error"
			}
			note := fmt.Sprintf("(and %d more similar %ss elsewhere)", more, what)
			if more == 1 {
				note = fmt.Sprintf("(and one more similar %s elsewhere)", what)
			}
			if d.Detail != "" {
				d.Detail += "\n\n" + note
			} else {
				d.Detail = note
			}
		}
		out = append(out, d)
	}
	return out
}

// OnlyWarnings reports whether ds holds at least one diagnostic and only
// warnings: the lists -compact-warnings shortens.
func OnlyWarnings(ds diag.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity != diag.Warning {
			return false
		}
	}
	return len(ds) > 0
}

// RenderWarningsCompact writes warnings as -compact-warnings shows them:
// a "Warnings:" heading, then per warning (consolidated as opts say) its
// summary and the file and line of its first occurrence, with how many
// more there are, and a closing line naming the option that hides the
// details (tool, e.g. "rig").
func RenderWarningsCompact(w io.Writer, ds diag.Diagnostics, tool string, opts RenderOptions, condenseOpts CondenseOptions) error {
	o := ropts{color: opts.Color}
	var b strings.Builder
	b.WriteString("\n" + o.c("[bold][yellow]Warnings:[reset]\n\n"))
	for _, g := range condense(ds, condenseOpts) {
		d := printableDiagnostic(g.d)
		fmt.Fprintf(&b, "- %s\n", d.Summary)
		switch {
		case d.Subject != nil && g.places > 1:
			fmt.Fprintf(&b, "  on %s line %d (and %d more)\n", printable(d.Subject.Filename), d.Subject.Start.Line, g.places-1)
		case d.Subject != nil:
			fmt.Fprintf(&b, "  on %s line %d\n", printable(d.Subject.Filename), d.Subject.Start.Line)
		}
	}
	fmt.Fprintf(&b, "\nTo see the full warning notes, run %s without -compact-warnings.\n", tool)
	_, err := io.WriteString(w, b.String())
	return err
}
