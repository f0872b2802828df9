package ui

import (
	"io"

	"github.com/rig-iac/rig/internal/diag"
)

// DiagnosticsView is how diagnostics are shown to people: in color or
// not, which deprecation warnings, and how similar ones are condensed.
type DiagnosticsView struct {
	Color       bool
	Deprecation DeprecationLevel
	Condense    CondenseOptions
	// Separated follows each diagnostic with a blank line (init).
	Separated bool
}

// Show writes ds for people: without the deprecation warnings the view
// leaves out (FilterDeprecations), only warnings in compact form when
// asked (RenderWarningsCompact), else condensed (Condense), in OpenTofu's
// boxed form, or its plain form without colors.
func (v DiagnosticsView) Show(w io.Writer, ds diag.Diagnostics, sources map[string][]byte) {
	ds = FilterDeprecations(ds, v.Deprecation)
	if len(ds) == 0 {
		return
	}
	opts := RenderOptions{Color: v.Color, Separated: v.Separated}
	if v.Condense.CompactWarnings && OnlyWarnings(ds) {
		_ = RenderWarningsCompact(w, ds, "rig", opts, v.Condense)
		return
	}
	if v.Color {
		_ = RenderDiagnostics(w, Condense(ds, v.Condense), sources, opts)
	} else {
		_ = RenderDiagnosticsPlain(w, Condense(ds, v.Condense), sources, opts)
	}
}

// ShowSplit writes ds for people as OpenTofu does: sorted
// (SortDiagnostics), the warnings to out and the errors to errs, each
// filtered, condensed and rendered as Show does.
func (v DiagnosticsView) ShowSplit(out, errs io.Writer, ds diag.Diagnostics, sources map[string][]byte) {
	var warnings, errors diag.Diagnostics
	for _, d := range SortDiagnostics(ds) {
		if d.Severity == diag.Error {
			errors = append(errors, d)
		} else {
			warnings = append(warnings, d)
		}
	}
	if len(errors) > 0 {
		// Compact warnings are for runs without errors, whose warnings
		// give an error its context.
		v.Condense.CompactWarnings = false
	}
	v.Show(out, warnings, sources)
	v.Show(errs, errors, sources)
}
