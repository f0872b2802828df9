package graphview

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// The geometry of a drawing, in pixels; the page uses the same.
const (
	colW    = 320
	nodeW   = 270
	rowH    = 26
	nodeH   = 20
	margin  = 24
	legendH = 30
	junctR  = 5
)

// actionColors are the fills of each action, as on the page.
var actionColors = map[Action]string{
	ActionCreate: "#2f9e44", ActionUpdate: "#e0a100", ActionDelete: "#e03131",
	ActionReplaceCreate: "#7048e8", ActionReplaceDelete: "#c2255c",
	ActionRead: "#1c7ed6", ActionNoOp: "#868e96", ActionJunction: "#adb5bd",
	ActionInvoke: "#0ca678", ActionOpenEphemeral: "#ae3ec9", ActionRenewEphemeral: "#da77f2",
	ActionCloseEphemeral: "#862e9c", ActionGateCheck: "#1098ad",
}

// LegendOrder is the order of the actions in a legend.
var LegendOrder = []Action{ActionCreate, ActionUpdate, ActionDelete, ActionReplaceCreate, ActionReplaceDelete, ActionRead, ActionNoOp, ActionJunction,
	ActionInvoke, ActionOpenEphemeral, ActionRenewEphemeral, ActionCloseEphemeral, ActionGateCheck}

// Color returns the colour (CSS hex) the pictures give the action.
func (a Action) Color() string {
	if c, ok := actionColors[a]; ok {
		return c
	}
	return actionColors[ActionNoOp]
}

// refusedColor outlines a delete the plan refuses (a protection recorded
// in state), dashed, as on the page.
const refusedColor = "#7a0b0b"

// WriteSVG writes d laid out as l as a static SVG image (no script): every
// module's band, every edge and every node, coloured by action, with a
// mark for deposed objects and create_before_destroy (a filled dot when
// own, a ring when inherited), a padlock for an object whose
// prevent_destroy is recorded, and a dashed outline for a refused delete. Each node is a "g" element with class
// "node" and its data-id and data-action; its "title" holds its label.
// It returns the first error from w.
func WriteSVG(w io.Writer, d *Document, l *Layout) error {
	bw := bufio.NewWriter(w)
	top := make([]float64, len(l.Groups))
	y := float64(margin + legendH)
	for g, grp := range l.Groups {
		top[g] = y
		y += float64(grp.Rows+1)*rowH + rowH/2
	}
	width := margin*2 + l.Layers*colW
	height := int(y) + margin
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, sans-serif">`+"\n", width, height, width, height)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="#fbfcfd"/>`+"\n", width, height)

	// Legend.
	used := map[Action]bool{}
	for _, n := range d.Nodes {
		used[n.Action] = true
	}
	x := margin
	for _, a := range LegendOrder {
		if !used[a] {
			continue
		}
		name := string(a)
		if a == ActionNoOp && d.Kind == KindResources {
			name = "resource"
		}
		fmt.Fprintf(bw, `<rect x="%d" y="%d" width="14" height="10" rx="2" fill="%s"/><text x="%d" y="%d" font-size="12" fill="#1d2330">%s</text>`+"\n",
			x, margin, actionColors[a], x+18, margin+10, name)
		x += 26 + 7*len(name)
	}

	pos := func(v int) (float64, float64) {
		return float64(margin + l.Layer[v]*colW), top[l.Group[v]] + rowH + l.Row[v]*rowH + (rowH-nodeH)/2
	}
	isOp := func(v int) bool { return d.Nodes[v].IsOperation() }

	for g, grp := range l.Groups {
		if grp.Module != "" {
			fill := "#f3f5f9"
			if g%2 == 1 {
				fill = "#eef1f6"
			}
			fmt.Fprintf(bw, `<rect x="0" y="%s" width="%d" height="%d" fill="%s"/>`+"\n", num(top[g]), width, (grp.Rows+1)*rowH, fill)
		}
		name := grp.Module
		if name == "" {
			name = "root module"
		}
		fmt.Fprintf(bw, `<text x="%d" y="%s" font-size="12" font-weight="bold" fill="#3b4252">%s (%d)</text>`+"\n", margin/3, num(top[g]+17), html.EscapeString(name), grp.Nodes)
	}

	bw.WriteString(`<g fill="none" stroke="#5a6478" stroke-opacity="0.5">` + "\n")
	for _, e := range d.Edges {
		if e.From == e.To {
			continue
		}
		ax, ay := pos(e.From)
		bx, by := pos(e.To)
		if isOp(e.From) {
			ax += nodeW
		} else {
			ax += nodeW/2 + junctR
		}
		if !isOp(e.To) {
			bx += nodeW/2 - junctR
		}
		ay += nodeH / 2
		by += nodeH / 2
		dx := max(30, (bx-ax)/2)
		fmt.Fprintf(bw, `<path d="M%s %sC%s %s %s %s %s %s"/>`+"\n", num(ax), num(ay), num(ax+dx), num(ay), num(bx-dx), num(by), num(bx), num(by))
	}
	bw.WriteString("</g>\n")

	for v, n := range d.Nodes {
		nx, ny := pos(v)
		fmt.Fprintf(bw, `<g class="node" data-id="%d" data-action="%s"><title>%s</title>`, v, n.Action, html.EscapeString(n.Label))
		if !n.IsOperation() {
			fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%d" fill="%s"/></g>`+"\n", num(nx+nodeW/2), num(ny+nodeH/2), junctR, actionColors[n.Action])
			continue
		}
		fmt.Fprintf(bw, `<rect x="%s" y="%s" width="%d" height="%d" rx="4" fill="%s"/>`, num(nx), num(ny), nodeW, nodeH, actionColors[n.Action])
		if n.Refused != "" {
			fmt.Fprintf(bw, `<rect class="refused" x="%s" y="%s" width="%d" height="%d" rx="5" fill="none" stroke="%s" stroke-width="2" stroke-dasharray="4 3"/>`,
				num(nx-2), num(ny-2), nodeW+4, nodeH+4, refusedColor)
		}
		textX, room := nx+6, nodeW-6
		if n.Deposed != "" {
			fmt.Fprintf(bw, `<rect x="%s" y="%s" width="5" height="%d" fill="#000" fill-opacity="0.35"/>`, num(nx+3), num(ny+3), nodeH-6)
			textX += 6
			room -= 6
		}
		if n.CBD {
			if n.CBDInherited {
				fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="4" fill="none" stroke="#fff" stroke-width="1.5"/>`, num(nx+nodeW-8), num(ny+nodeH/2))
			} else {
				fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="4" fill="#fff"/>`, num(nx+nodeW-8), num(ny+nodeH/2))
			}
			room -= 14
		}
		if n.Protected != "" || n.Refused != "" {
			lx := nx + nodeW - 12
			if n.CBD {
				lx -= 14
			}
			fmt.Fprintf(bw, `<g class="protected" fill="none" stroke="#fff" stroke-width="1.5"><path d="M%s %sv-2.5a2.5 2.5 0 0 1 5 0v2.5"/><rect x="%s" y="%s" width="7" height="5" fill="#fff" stroke="none"/></g>`,
				num(lx+1), num(ny+nodeH/2-1), num(lx), num(ny+nodeH/2-1))
			room -= 14
		}
		fmt.Fprintf(bw, `<text x="%s" y="%s" font-size="10" font-family="ui-monospace, monospace" fill="#fff">%s</text></g>`+"\n",
			num(textX), num(ny+14), html.EscapeString(truncate(shortLabel(n), room)))
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// truncate shortens s to about width pixels of 10px monospace text,
// keeping its end (the instance key and the verb) behind an ellipsis.
func truncate(s string, width int) string {
	n := int(float64(width) / 6.0)
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// shortLabel is the label drawn in a node: without the node's module,
// which its band names.
func shortLabel(n Node) string {
	if n.Module != "" && strings.HasPrefix(n.Label, n.Module+".") {
		return n.Label[len(n.Module)+1:]
	}
	return n.Label
}
