package command

import (
	"flag"
	"io"
	"os"

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

// commandStream is the machine-readable output of a command without a
// plan (init, get, the state and workspace commands): the version message,
// then its diagnostics and what it tells people, as messages, on standard
// output with -json or into a file with -json-into.
type commandStream struct {
	view *ui.JSONView
	// human says the human output still goes to the terminal (-json-into).
	human bool
	// lines turns what the command writes on m.Out into messages.
	lines *ui.LogLines
	file  *os.File // the -json-into file; nil with -json
}

// startStream starts a command's JSON stream as its flags ask: with -json
// standard output carries only the stream (and input is off); with
// -json-into both. What the command writes on m.Out becomes messages; a
// command that writes its own messages (m.stream.view) uses
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
	file, ds := openJSONInto(f.into, f.json)
	if ds.HasErrors() {
		if f.json {
			m.stream = &commandStream{view: ui.NewJSONView(m.Out)}
			m.stream.view.Version(version.Terraform, version.Rig)
		}
		m.showDiagnostics(ds)
		return false
	}
	var w io.Writer
	switch {
	case f.json:
		w = m.Out
	case file != nil:
		w = file
	default:
		return true
	}
	s := &commandStream{view: ui.NewJSONView(w), human: !f.json, file: file}
	s.view.Version(version.Terraform, version.Rig)
	if f.json {
		m.Color, m.Input = false, false
	}
	switch {
	case convertLines && f.json:
		s.lines = ui.NewLogLines(s.view)
		m.Out = s.lines
	case convertLines:
		s.lines = ui.NewLogLines(s.view)
		m.Out = io.MultiWriter(m.Out, s.lines)
	case f.json:
		m.Out = io.Discard
	}
	m.stream = s
	return true
}

// endStream writes what is left of the command's lines and closes the
// -json-into file.
func (m *Meta) endStream() {
	if m.stream == nil {
		return
	}
	if m.stream.lines != nil {
		m.stream.lines.Flush()
	}
	if m.stream.file != nil {
		m.stream.file.Close()
		m.stream.file = nil
	}
}

// streamDiagnostics sends diagnostics to the JSON stream, if there is
// one, and reports whether people still see them.
func (m *Meta) streamDiagnostics(ds diag.Diagnostics) (human bool) {
	if m.stream == nil {
		return true
	}
	if m.stream.lines != nil {
		m.stream.lines.Flush() // what was said before comes first
	}
	m.stream.view.Diagnostics(ds, m.sources)
	return m.stream.human
}

// writeJSONInto writes the JSON document a command prints with -json into
// the file -json-into names (created or truncated, mode 0600), for the
// commands whose machine-readable output is one document (output, show,
// validate, state show).
func writeJSONInto(path string, doc []byte) diag.Diagnostics {
	f, ds := openJSONInto(path, false)
	if ds.HasErrors() {
		return ds
	}
	_, err := f.Write(append(doc, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to write the -json-into file", "Writing %s: %s.", path, err)}
	}
	return nil
}
