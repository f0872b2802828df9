package ui

import "github.com/rig-iac/rig/internal/diag"

// ErrorMessage writes an "error" message of type typ with fields, such
// as rig test's "test_cleanup".
func (v *JSONView) ErrorMessage(message, typ string, fields map[string]any) {
	v.emit("error", message, typ, fields)
}

// DiagnosticsWith writes the diagnostics as Diagnostics does, each message
// with fields added (rig test's @testfile and @testrun).
func (v *JSONView) DiagnosticsWith(ds diag.Diagnostics, sources map[string][]byte, fields map[string]any) {
	files := newSourceFiles(sources)
	for _, d := range ds {
		m := map[string]any{"diagnostic": diagnosticToJSON(d, files)}
		for k, f := range fields {
			m[k] = f
		}
		if d.Severity == diag.Warning {
			v.emit("warn", "Warning: "+d.Summary, "diagnostic", m)
		} else {
			v.emit("error", "Error: "+d.Summary, "diagnostic", m)
		}
	}
}
