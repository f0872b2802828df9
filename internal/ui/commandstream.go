package ui

import (
	"io"

	"github.com/rig-iac/rig/internal/diag"
)

// CommandStream is the machine-readable output of a command without a
// plan (init, get, the state and workspace commands): the version
// message, then its diagnostics and what it tells people, as messages.
type CommandStream struct {
	// View writes the messages.
	View *JSONView
	// Human says the human output still goes to the terminal (the stream
	// goes into a file beside it).
	Human bool
	// lines turns what the command writes on its standard output into
	// messages; nil for a command that writes its messages itself.
	lines *LogLines
	// stdout is the terminal's writer, where Say writes when Human.
	stdout io.Writer
	file   io.Closer
}

// StartCommandStream starts the stream on w (file, when not nil, is the
// file w writes to, closed by End) with the version message of rig
// version rigVersion, compatible with tfVersion. It returns the writer
// the command writes its human output to instead of stdout: with
// convertLines, what the command writes becomes messages (beside stdout
// when human); without, the command writes its own messages to View, and
// stdout is unchanged (discarded unless human).
func StartCommandStream(w io.Writer, file io.Closer, stdout io.Writer, human, convertLines bool, tfVersion, rigVersion string) (*CommandStream, io.Writer) {
	s := &CommandStream{View: NewJSONView(w), Human: human, stdout: stdout, file: file}
	s.View.Version(tfVersion, rigVersion)
	switch {
	case convertLines && human:
		s.lines = NewLogLines(s.View)
		return s, io.MultiWriter(stdout, s.lines)
	case convertLines:
		s.lines = NewLogLines(s.View)
		return s, s.lines
	case human:
		return s, stdout
	}
	return s, io.Discard
}

// End writes what is left of the command's lines and closes the file.
func (s *CommandStream) End() {
	if s.lines != nil {
		s.lines.Flush()
	}
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

// Diagnostics sends diagnostics to the stream, after what the command
// said before them, and reports whether people still see them.
func (s *CommandStream) Diagnostics(ds diag.Diagnostics, sources map[string][]byte) (human bool) {
	if s.lines != nil {
		s.lines.Flush()
	}
	s.View.Diagnostics(ds, sources)
	return s.Human
}

// Say writes text for people, when they see the command's output, and msg
// as one message of the stream, after what the command said before: for
// what is worded or broken into paragraphs differently in the two.
func (s *CommandStream) Say(text, msg string) {
	if s.lines != nil {
		s.lines.Flush()
	}
	if s.Human {
		io.WriteString(s.stdout, text)
	}
	s.View.Info(msg)
}
