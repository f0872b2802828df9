package command

import (
	"bytes"
	"io"
	"strings"
)

// moduleProgress is where init's module step reports each module it
// installs: init's output, except in a -json stream, where a module
// installed is OpenTofu's "installing NAME in DIR" message.
func (m *Meta) moduleProgress() io.Writer {
	if m.stream == nil {
		return m.Out
	}
	return &moduleProgressLines{m: m}
}

// moduleProgressLines turns the module installer's lines into messages.
type moduleProgressLines struct {
	m       *Meta
	partial []byte
}

func (w *moduleProgressLines) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.partial[:i+1])
		w.partial = w.partial[i+1:]
		if name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "- "); ok {
			w.m.stream.Say(line, "installing "+name)
			continue
		}
		if _, err := io.WriteString(w.m.Out, line); err != nil {
			return len(p), err
		}
	}
}
