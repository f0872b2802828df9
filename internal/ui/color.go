package ui

import (
	"strings"

	wordwrap "github.com/mitchellh/go-wordwrap"
)

// RenderOptions control human-readable output.
type RenderOptions struct {
	// Color enables ANSI escape sequences (the codes OpenTofu uses); when
	// false the output contains none.
	Color bool
	// Width is the column count text is wrapped to; 0 means 78, the width
	// OpenTofu uses when its output is not a terminal.
	Width int
	// ShowSensitive shows sensitive values where every human rendering
	// (plans, state, outputs, console values) otherwise writes
	// "(sensitive value)": the one switch behind -show-sensitive. The JSON
	// renderings carry values and their sensitivity whatever it says.
	ShowSensitive bool
	// Separated follows each diagnostic with a blank line, as OpenTofu's
	// init and the commands like it write them.
	Separated bool
}

// ropts returns the rendering options of the diff renderers.
func (o RenderOptions) ropts() ropts {
	return ropts{color: o.Color, showSensitive: o.ShowSensitive}
}

func (o RenderOptions) width() int {
	if o.Width <= 0 {
		return 78
	}
	return o.Width
}

// colorCodes are the tags the templates below use, with their SGR codes.
var colorCodes = map[string]string{
	"reset":     "0",
	"bold":      "1",
	"underline": "4",
	"red":       "31",
	"green":     "32",
	"yellow":    "33",
	"cyan":      "36",
	"dark_gray": "90",
}

// colorize expands the [tag] markers of a template: to escape sequences when
// on (followed by a final reset, as OpenTofu's colorizer does), or to nothing.
// Only templates go through it, never user values, so a literal "[id=…]" in a
// value is never mistaken for a tag.
func colorize(s string, on bool) string {
	if !strings.Contains(s, "[") {
		return s
	}
	var b strings.Builder
	tagged := false
	for {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			b.WriteString(s)
			break
		}
		code, ok := colorCodes[s[i+1:i+j]]
		if !ok {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		tagged = true
		if on {
			b.WriteString("\x1b[" + code + "m")
		}
		s = s[i+j+1:]
	}
	if tagged && on {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

// wordWrap wraps each line of str to width-1 columns, leaving lines that
// start with a space as they are (OpenTofu's format.WordWrap).
func wordWrap(str string, width int) string {
	if width <= 1 {
		return str
	}
	lines := strings.Split(str, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, " ") {
			lines[i] = wordwrap.WrapString(line, uint(width-1))
		}
	}
	return strings.Join(lines, "\n")
}
