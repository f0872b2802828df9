package graphview

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"
)

var (
	//go:embed page/graph.html
	pageHTML string
	//go:embed page/graph.css
	pageCSS string
	//go:embed page/graph.js
	pageJS string
)

// page is the JSON the graph page reads.
type page struct {
	Document *Document `json:"document"`
	Layout   *Layout   `json:"layout"`
}

// WriteHTML writes the graph page of d laid out as l: one self-contained
// HTML file (its styles, script and data inline, nothing fetched) that
// draws the graph on a canvas. Besides the canvas, the page lists every
// node in an element "#ops" (one "li" per operation, with data-id and
// data-action) and exposes window.rigGraph for scripts. It returns the
// first error from w.
func WriteHTML(w io.Writer, d *Document, l *Layout) error {
	data, err := json.Marshal(page{Document: d, Layout: l})
	if err != nil {
		return fmt.Errorf("encode graph page data: %w", err)
	}
	// json.Marshal escapes <, > and &, so the data cannot end its script element.
	r := strings.NewReplacer(
		"{{TITLE}}", html.EscapeString(d.Title),
		"{{CSS}}", pageCSS,
		"{{JS}}", pageJS,
		"{{DATA}}", string(data),
	)
	_, err = r.WriteString(w, pageHTML)
	return err
}
