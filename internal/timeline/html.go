package timeline

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/graphview"
)

// The geometry of the page's charts, in pixels.
const (
	labelW  = 380
	chartW  = 900
	axisH   = 26
	plotH   = 90
	rightW  = 90
	bigRowH = 16
	// rows beyond this are drawn thin, without labels
	labelledRows = 400
	thinRowH     = 5
)

// WriteHTML writes the timeline page of r: a summary; a Gantt chart with
// one bar per operation that ran (an SVG "rect" of class "bar", with
// data-id, data-action and data-outcome; the bars of the critical path
// also have the class "critical" and are joined by a line); how many
// operations ran at once, for every operation (against -parallelism) and
// per limit; and the critical path as a list ("#critical li"). The page
// is self-contained and has no script. It returns the first error from w.
func WriteHTML(w io.Writer, r *Record) error {
	bw := bufio.NewWriter(w)
	ran := r.Ran()
	crit := r.CriticalPath()
	onPath := make(map[int]bool, len(crit))
	var critDur time.Duration
	for _, v := range crit {
		onPath[v] = true
		critDur += r.Nodes[v].Duration()
	}
	total := r.Finished.Sub(r.Started)
	for _, v := range ran {
		total = max(total, r.Nodes[v].End.Sub(r.Started))
	}
	for _, a := range r.Activities {
		total = max(total, a.End.Sub(r.Started))
	}
	if total <= 0 {
		total = time.Millisecond
	}
	scale := float64(chartW) / float64(total)
	x := func(t time.Time) float64 { return labelW + float64(t.Sub(r.Started))*scale }

	cmd := r.Command
	if cmd == "" {
		cmd = "apply"
	}
	failed := 0
	for _, v := range ran {
		if r.Nodes[v].Outcome == Failed {
			failed++
		}
	}
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>rig %s: timeline</title>\n<style>\n%s</style>\n</head>\n<body>\n", cmd, pageCSS)
	fmt.Fprintf(bw, "<header><h1>rig %s: timeline</h1>\n<p class=\"summary\">Started %s, took %s. ",
		cmd, r.Started.UTC().Format("2006-01-02 15:04:05 UTC"), formatDuration(r.Finished.Sub(r.Started)))
	if cmd == "plan" {
		fmt.Fprintf(bw, "A plan runs no operation; its reads ran for %d provider configuration(s)", len(r.APIs))
	} else {
		fmt.Fprintf(bw, "%d operations ran (%d failed) with -parallelism=%d", len(ran), failed, r.Parallelism)
	}
	for _, l := range r.Limits {
		fmt.Fprintf(bw, ", limit %s = %d", html.EscapeString(l.Name), l.N)
	}
	bw.WriteString(".")
	if len(crit) > 0 {
		fmt.Fprintf(bw, " Critical path: %d operations, %s (%d%% of the %s).", len(crit), formatDuration(critDur), int(math.Round(100*float64(critDur)/float64(total))), cmd)
	}
	bw.WriteString("</p>\n<div class=\"legend\">")
	used := map[graphview.Action]bool{}
	for _, v := range ran {
		used[r.Nodes[v].Action] = true
	}
	for _, a := range r.Activities {
		used[a.Kind] = true
	}
	for _, a := range graphview.LegendOrder {
		if used[a] {
			fmt.Fprintf(bw, `<span><i style="background:%s"></i>%s</span>`, a.Color(), a)
		}
	}
	if cmd == "plan" {
		bw.WriteString(`<span><i style="background:#a5d8ff"></i>calls in flight</span><span><i class="adaptive"></i>adaptive limit</span></div></header>` + "\n")
		// A plan runs no operation: only its reads.
		writeAPIs(bw, r)
		bw.WriteString("</body>\n</html>\n")
		return bw.Flush()
	}
	bw.WriteString(`<span><i class="crit"></i>critical path</span><span><i class="fail"></i>failed</span></div></header>` + "\n")
	writeReport(bw, r)

	// The Gantt chart.
	rows := activityRows(r, ran)
	rowH := bigRowH
	if len(rows) > labelledRows {
		rowH = thinRowH
	}
	width := labelW + chartW + rightW
	height := axisH + len(rows)*rowH + 10
	bw.WriteString("<section><h2>Operations</h2>\n")
	fmt.Fprintf(bw, `<svg id="gantt" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	writeAxis(bw, total, scale, height)
	row := map[int]int{}
	for i, v := range rows {
		if v < 0 {
			writeActivity(bw, r.Activities[-1-v], -1-v, axisH+i*rowH, rowH, x)
			continue
		}
		row[v] = i
		n := r.Nodes[v]
		y := axisH + i*rowH
		if rowH >= bigRowH {
			fmt.Fprintf(bw, `<text class="label" x="%d" y="%d">%s</text>`, labelW-6, y+rowH-4, html.EscapeString(truncate(n.Label, 54)))
		}
		class := "bar"
		if onPath[v] {
			class += " critical"
		}
		if n.Outcome == Failed {
			class += " failed"
		}
		bx := x(n.Start)
		bw.WriteString("\n")
		fmt.Fprintf(bw, `<rect class="%s" data-id="%d" data-action="%s" data-outcome="%s" x="%s" y="%d" width="%s" height="%d" fill="%s"><title>%s: %s (%s)%s</title></rect>`,
			class, v, n.Action, n.Outcome, num(bx), y+1, num(max(1.5, x(n.End)-bx)), max(1, rowH-2), n.Action.Color(),
			html.EscapeString(n.Label), formatDuration(n.Duration()), n.Outcome, limitsNote(n.Limits))
	}
	if len(crit) > 1 {
		bw.WriteString("\n<polyline class=\"critical-path\" points=\"")
		for _, v := range crit {
			n := r.Nodes[v]
			y := float64(axisH+row[v]*rowH) + float64(rowH)/2
			fmt.Fprintf(bw, "%s,%s %s,%s ", num(x(n.Start)), num(y), num(x(n.End)), num(y))
		}
		bw.WriteString("\"/>")
	}
	bw.WriteString("\n</svg></section>\n")

	// Concurrency.
	bw.WriteString("<section><h2>Operations running at once</h2>\n<p class=\"note\">An operation runs from its start until its result is persisted; while it waits for that, it has given up its slot, so the count may pass a bound for a moment.</p>\n")
	for _, s := range r.Concurrency() {
		writeSeries(bw, s, total, scale)
	}
	bw.WriteString("</section>\n")
	writeAPIs(bw, r)

	// The critical path as a list.
	bw.WriteString("<section><h2>Critical path</h2>\n")
	if len(crit) == 0 {
		bw.WriteString("<p>No operation ran.</p>\n")
	} else {
		bw.WriteString("<p>The longest chain of operations, each waiting for the one before it: shortening these shortens the " + cmd + ".</p>\n<ol id=\"critical\">\n")
		for _, v := range crit {
			n := r.Nodes[v]
			fmt.Fprintf(bw, "<li data-id=\"%d\"><code>%s</code> %s, %s</li>\n", v, html.EscapeString(n.Label), formatDuration(n.Duration()), n.Outcome)
		}
		bw.WriteString("</ol>\n")
	}
	bw.WriteString("</section>\n</body>\n</html>\n")
	return bw.Flush()
}

// writeAxis writes the time axis and the grid of a chart height tall.
func writeAxis(bw *bufio.Writer, total time.Duration, scale float64, height int) {
	step := tickStep(total)
	for t := time.Duration(0); t <= total; t += step {
		x := labelW + float64(t)*scale
		fmt.Fprintf(bw, `<line class="grid" x1="%s" y1="%d" x2="%s" y2="%d"/><text class="tick" x="%s" y="%d">%s</text>`+"\n",
			num(x), axisH-6, num(x), height, num(x), axisH-10, formatDuration(t))
	}
}

// writeSeries writes one plot of how many operations ran at once.
func writeSeries(bw *bufio.Writer, s Series, total time.Duration, scale float64) {
	top := max(s.Limit, s.Peak, 1)
	width := labelW + chartW + rightW
	height := axisH + plotH + 8
	name, id := "every operation", "concurrency-all"
	bound := fmt.Sprintf("-parallelism=%d", s.Limit)
	if s.Name != "" {
		name, id = "limit "+s.Name, "concurrency-"+s.Name
		bound = fmt.Sprintf("limit %d", s.Limit)
	}
	fmt.Fprintf(bw, `<svg class="concurrency" id="%s" data-peak="%d" data-limit="%d" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n",
		html.EscapeString(id), s.Peak, s.Limit, width, height, width, height)
	writeAxis(bw, total, scale, height-8)
	y := func(n int) float64 { return float64(axisH+plotH) - float64(n)*float64(plotH)/float64(top) }
	fmt.Fprintf(bw, `<text class="series" x="%d" y="%d">%s</text><text class="label" x="%d" y="%d">peak %d, %s</text>`+"\n",
		labelW-6, axisH+14, html.EscapeString(name), labelW-6, axisH+30, s.Peak, bound)
	if s.Limit > 0 && s.Peak >= s.Limit {
		fmt.Fprintf(bw, `<text class="label bound" x="%d" y="%d">at the bound: operations may have waited</text>`+"\n", labelW-6, axisH+46)
	}
	var pts strings.Builder
	fmt.Fprintf(&pts, "%d,%s ", labelW, num(y(0)))
	prev := 0
	for _, st := range s.Steps {
		x := labelW + float64(st.At)*scale
		fmt.Fprintf(&pts, "%s,%s %s,%s ", num(x), num(y(prev)), num(x), num(y(st.Running)))
		prev = st.Running
	}
	fmt.Fprintf(&pts, "%s,%s", num(labelW+float64(total)*scale), num(y(prev)))
	fmt.Fprintf(bw, `<polygon class="area" points="%s %s,%s"/>`+"\n", pts.String(), num(labelW+float64(total)*scale), num(y(0)))
	if s.Limit > 0 {
		fmt.Fprintf(bw, `<line class="limit" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="tick" x="%d" y="%s">%d</text>`+"\n",
			labelW, num(y(s.Limit)), labelW+chartW, num(y(s.Limit)), labelW+chartW+24, num(y(s.Limit)+4), s.Limit)
	}
	bw.WriteString("</svg>\n")
}

// tickStep returns a step of 1, 2 or 5 × 10ⁿ that cuts total into 5 to 10 parts.
func tickStep(total time.Duration) time.Duration {
	step := time.Millisecond
	for {
		for _, m := range []time.Duration{1, 2, 5} {
			if total/(step*m) <= 10 {
				return step * m
			}
		}
		step *= 10
	}
}

// formatDuration writes d for people: "850 ms", "4.2 s", "3 m 05 s".
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
	}
	return fmt.Sprintf("%d m %02d s", int(d.Minutes()), int(d.Seconds())%60)
}

func limitsNote(limits []string) string {
	if len(limits) == 0 {
		return ""
	}
	return "; limits: " + html.EscapeString(strings.Join(limits, ", "))
}

// truncate shortens s to n characters, keeping its end behind an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

const pageCSS = `body { margin: 0; padding: 0 16px 24px; font: 13px/1.4 system-ui, sans-serif; color: #1d2330; background: #fbfcfd; }
header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #d8dce3; padding: 8px 0; margin: 0 -16px; padding-left: 16px; z-index: 1; }
h1 { font-size: 16px; margin: 0 0 4px; }
h2 { font-size: 14px; margin: 16px 0 6px; }
.summary { margin: 0 0 6px; }
.legend { display: flex; gap: 12px; flex-wrap: wrap; font-size: 12px; }
.legend span { display: inline-flex; gap: 4px; align-items: center; }
.legend i { display: inline-block; width: 14px; height: 10px; border-radius: 2px; }
.legend i.crit { border: 2px solid #111; background: none; }
.legend i.fail { border: 2px dashed #e03131; background: none; }
.legend i.adaptive { height: 0; border-top: 2px solid #e8590c; border-radius: 0; }
svg { display: block; font-family: system-ui, sans-serif; }
.label { font: 11px ui-monospace, monospace; fill: #3b4252; text-anchor: end; }
.tick { font-size: 10px; fill: #5b6372; text-anchor: middle; }
.label.bound { fill: #e8590c; }
.series { font-size: 12px; font-weight: bold; fill: #1d2330; text-anchor: end; }
.grid { stroke: #e3e6eb; stroke-width: 1; }
.bar { rx: 2; }
.activity { rx: 2; opacity: 0.9; }
.activity.failed { stroke: #e03131; stroke-width: 2; stroke-dasharray: 3 2; }
.activity-label { fill: #5b6372; font-style: italic; }
.progress { fill: #fff; stroke: #1d2330; stroke-width: 1; }
.bar.critical { stroke: #111; stroke-width: 1.5; }
.bar.failed { stroke: #e03131; stroke-width: 2; stroke-dasharray: 3 2; }
.critical-path { fill: none; stroke: #111; stroke-width: 1; stroke-dasharray: 2 2; }
.area { fill: #a5d8ff; stroke: #1c7ed6; stroke-width: 1.2; }
.limit { stroke: #e8590c; stroke-width: 1.5; stroke-dasharray: 6 4; }
.adaptive { fill: none; stroke: #e8590c; stroke-width: 1.5; }
.note { margin: 0 0 6px; color: #5b6372; font-size: 12px; }
ol#critical code { font-size: 12px; }
`
