package ui

import (
	"regexp"
	"strings"
	"sync"
)

// LogLines turns a command's human output into the stream's messages as
// OpenTofu writes them: a paragraph (lines up to a blank one) is one
// message, its lines joined by spaces; a list item ("- x") is a message
// of its own, without its dash; colors are left out. It is safe for
// concurrent use.
type LogLines struct {
	view *JSONView
	mu   sync.Mutex
	// partial is a line not yet ended; para the lines of the paragraph.
	partial string
	para    []string
}

// NewLogLines returns the writer of view's messages.
func NewLogLines(view *JSONView) *LogLines { return &LogLines{view: view} }

// ansiEscape matches the color sequences of the human output.
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// Write implements io.Writer: each line ended is taken in.
func (l *LogLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	text := l.partial + string(p)
	lines := strings.Split(text, "\n")
	l.partial = lines[len(lines)-1]
	for _, line := range lines[:len(lines)-1] {
		l.line(line)
	}
	return len(p), nil
}

func (l *LogLines) line(line string) {
	line = strings.TrimSpace(ansiEscape.ReplaceAllString(line, ""))
	switch {
	case line == "":
		l.endParagraph()
	case strings.HasPrefix(line, "- "):
		l.endParagraph()
		l.view.Info(strings.TrimPrefix(line, "- "))
	default:
		l.para = append(l.para, line)
	}
}

func (l *LogLines) endParagraph() {
	if len(l.para) > 0 {
		l.view.Info(strings.Join(l.para, " "))
		l.para = nil
	}
}

// Flush writes the paragraph (and line) not yet ended.
func (l *LogLines) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.partial != "" {
		l.line(l.partial)
		l.partial = ""
	}
	l.endParagraph()
}
