package graphview

import (
	"fmt"
	"io"
	"os"
)

// WriteFormat writes a graph to w in format: DOT, or Mermaid ("mermaid"),
// through text, or the document doc builds as an HTML page ("html") or an
// SVG image ("svg").
func WriteFormat(w io.Writer, format string, text func(w io.Writer, mermaid bool) error, doc func() *Document) error {
	if format == "html" || format == "svg" {
		d := doc()
		l := LayoutOf(d)
		if format == "svg" {
			return WriteSVG(w, d, l)
		}
		return WriteHTML(w, d, l)
	}
	return text(w, format == "mermaid")
}

// WriteFile creates (or truncates) the file at path and writes the graph
// to it as WriteFormat does.
func WriteFile(path, format string, text func(w io.Writer, mermaid bool) error, doc func() *Document) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteFormat(f, format, text, doc); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
