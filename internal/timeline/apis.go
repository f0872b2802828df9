package timeline

import (
	"bufio"
	"fmt"
	"html"
	"strings"
	"time"
)

// apisSpan returns the first and last instants of r's API series.
func (r *Record) apisSpan() (first, last time.Time) {
	for _, a := range r.APIs {
		for _, s := range a.Steps {
			if first.IsZero() || s.At.Before(first) {
				first = s.At
			}
			if s.At.After(last) {
				last = s.At
			}
		}
	}
	return first, last
}

// APIPeak returns the most calls a's provider configuration had in flight
// at once, and the highest its adaptive limit went.
func (a API) APIPeak() (inFlight, limit int) {
	for _, s := range a.Steps {
		inFlight, limit = max(inFlight, s.InFlight), max(limit, s.Limit)
	}
	return inFlight, limit
}

// writeAPIs writes the section of the calls each provider configuration
// had in flight to its API (an SVG of class "api" per configuration, with
// data-provider, data-peak and data-ceiling: the calls in flight as an
// area, the adaptive limit as a stepped line), on a time axis of its own
// from the first call (planning included) to the end of the run.
func writeAPIs(bw *bufio.Writer, r *Record) {
	if len(r.APIs) == 0 {
		return
	}
	first, last := r.apisSpan()
	if r.Finished.After(last) {
		last = r.Finished
	}
	total := last.Sub(first)
	if total <= 0 {
		total = time.Millisecond
	}
	scale := float64(chartW) / float64(total)
	bw.WriteString("<section><h2>API calls in flight</h2>\n<p class=\"note\">Per provider configuration, from its first call (while planning) to the end: the calls to its API in flight (reads, creates, updates, deletes, imports) and their adaptive limit, which grows while the API's latency holds and falls when it rises or the API throttles.</p>\n")
	for _, a := range r.APIs {
		peak, peakLimit := a.APIPeak()
		top := max(peak, peakLimit, 1)
		width, height := labelW+chartW+rightW, axisH+plotH+8
		fmt.Fprintf(bw, `<svg class="api" data-provider="%s" data-peak="%d" data-ceiling="%d" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n",
			html.EscapeString(a.Provider), peak, a.Ceiling, width, height, width, height)
		writeAxis(bw, total, scale, height-8)
		y := func(n int) float64 { return float64(axisH+plotH) - float64(n)*float64(plotH)/float64(top) }
		x := func(t time.Time) float64 { return labelW + float64(t.Sub(first))*scale }
		fmt.Fprintf(bw, `<text class="series" x="%d" y="%d">%s</text><text class="label" x="%d" y="%d">peak %d in flight, limit up to %d of %d</text>`+"\n",
			labelW-6, axisH+14, html.EscapeString(a.Provider), labelW-6, axisH+30, peak, peakLimit, a.Ceiling)
		var area, limit strings.Builder
		fmt.Fprintf(&area, "%d,%s ", labelW, num(y(0)))
		prevIn, prevLimit := 0, 0
		for i, s := range a.Steps {
			fmt.Fprintf(&area, "%s,%s %s,%s ", num(x(s.At)), num(y(prevIn)), num(x(s.At)), num(y(s.InFlight)))
			if i > 0 {
				fmt.Fprintf(&limit, "%s,%s ", num(x(s.At)), num(y(prevLimit)))
			}
			fmt.Fprintf(&limit, "%s,%s ", num(x(s.At)), num(y(s.Limit)))
			prevIn, prevLimit = s.InFlight, s.Limit
		}
		end := num(labelW + float64(total)*scale)
		fmt.Fprintf(&area, "%s,%s %s,%s", end, num(y(prevIn)), end, num(y(0)))
		fmt.Fprintf(&limit, "%s,%s", end, num(y(prevLimit)))
		fmt.Fprintf(bw, `<polygon class="area" points="%s"/>`+"\n", area.String())
		fmt.Fprintf(bw, `<polyline class="adaptive" points="%s"/>`+"\n", limit.String())
		bw.WriteString("</svg>\n")
	}
	bw.WriteString("</section>\n")
}
