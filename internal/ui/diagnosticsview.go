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
	opts := RenderOptions{Color: v.Color}
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
