package command

import (
	"flag"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
)

// streamFlags are -json and -json-into of a command without a plan.
type streamFlags struct {
	json bool
	into string
}

// addStreamFlags defines -json and -json-into for a command whose
// machine-readable output is the JSON line stream (what its lines say).
func addStreamFlags(fs *flag.FlagSet, f *streamFlags) {
	fs.BoolVar(&f.json, "json", false, "Print machine-readable output: one JSON message a line, as OpenTofu writes them; implies -input=false.")
	addJSONIntoFlag(fs, &f.into)
}

// startStream starts a command's JSON stream as its flags ask: with -json
// standard output carries only the stream (and input is off); with
// -json-into both. What the command writes on m.Out becomes messages; a
// command that writes its own messages (m.stream.View) uses
// startTypedStream. It reports false after showing why it could not.
func (m *Meta) startStream(f streamFlags) bool {
	return m.startStreamWith(f, true)
}

// startTypedStream is startStream for a command that writes its messages
// itself: with -json, what it writes on m.Out is discarded.
func (m *Meta) startTypedStream(f streamFlags) bool {
	return m.startStreamWith(f, false)
}

func (m *Meta) startStreamWith(f streamFlags, convertLines bool) bool {
	file, ds := ui.OpenJSONInto(f.into, f.json)
	if ds.HasErrors() {
		if f.json {
			m.stream, _ = ui.StartCommandStream(m.Out, nil, m.Out, false, false, version.Terraform, version.Rig)
		}
		m.showDiagnostics(ds)
		return false
	}
	switch {
	case f.json:
		m.Color, m.Input = false, false
		m.stream, m.Out = ui.StartCommandStream(m.Out, nil, m.Out, false, convertLines, version.Terraform, version.Rig)
	case file != nil:
		m.stream, m.Out = ui.StartCommandStream(file, file, m.Out, true, convertLines, version.Terraform, version.Rig)
	}
	return true
}

// endStream writes what is left of the command's lines and closes the
// -json-into file.
func (m *Meta) endStream() {
	if m.stream != nil {
		m.stream.End()
	}
}

// streamDiagnostics sends diagnostics to the JSON stream, if there is
// one, and reports whether people still see them.
func (m *Meta) streamDiagnostics(ds diag.Diagnostics) (human bool) {
	if m.stream == nil {
		return true
	}
	return m.stream.Diagnostics(ds, m.sources)
}
