package dag

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// MermaidOptions configures Mermaid.
type MermaidOptions[K comparable] struct {
	// Direction is the flowchart's direction: "TD" (top down, the
	// default), "LR", "BT" or "RL".
	Direction string
	// Name renders a node's label; nil means fmt's %v.
	Name func(K) string
}

// Mermaid writes g as a Mermaid flowchart, which Markdown renderers
// (GitHub, GitLab, documentation sites) draw: nodes in insertion order
// with the ids n0, n1, … and their labels quoted, then every edge as
// "nA --> nB", grouped by its From in insertion order, as DOT orders them.
// Labels are escaped with Mermaid's entity codes, so any label shows as
// it is and cannot change the chart. Mermaid returns the first error
// from w.
func (g *Graph[K]) Mermaid(w io.Writer, opts MermaidOptions[K]) error {
	name := opts.Name
	if name == nil {
		name = func(k K) string { return fmt.Sprint(k) }
	}
	dir := opts.Direction
	if dir == "" {
		dir = "TD"
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "flowchart %s\n", dir)
	dense := g.denseIDs()
	for id, alive := range g.live {
		if alive {
			fmt.Fprintf(bw, "\tn%d[\"%s\"]\n", dense[id], mermaidEscape(name(g.keys[id])))
		}
	}
	for id, alive := range g.live {
		if !alive {
			continue
		}
		for _, s := range g.out[id] {
			fmt.Fprintf(bw, "\tn%d --> n%d\n", dense[id], dense[s])
		}
	}
	return bw.Flush()
}

// mermaidEscape writes the characters a quoted Mermaid label would read
// as markup (quotes, the # of entity codes, angle brackets that could open
// HTML) as entity codes, and line breaks and other control characters as
// spaces.
func mermaidEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString("#quot;")
		case r == '#':
			b.WriteString("#35;")
		case r == '<':
			b.WriteString("#lt;")
		case r == '>':
			b.WriteString("#gt;")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
