package dag

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// DOTOptions configures DOT.
type DOTOptions[K comparable] struct {
	// GraphName names the digraph; empty means no name.
	GraphName string
	// GraphAttrs are attributes of the whole graph, such as
	// {"rankdir": "LR"}. They are written in key order.
	GraphAttrs map[string]string
	// Name renders a node's label; nil means fmt's %v.
	Name func(K) string
	// NodeAttrs, if not nil, returns extra attributes for a node, such as
	// {"shape": "box"}, written in key order after the label. An entry
	// "label" replaces the label from Name. It may return nil.
	NodeAttrs func(K) map[string]string
}

// DOT writes g in Graphviz's DOT language. Nodes are written in insertion
// order with the ids "n0", "n1", … (so that two nodes with the same label
// stay distinct) and their labels; then every edge, grouped by its From in
// insertion order. Every id, attribute name and value is quoted and
// escaped, so any label is valid. The output depends only on g and opts.
// DOT returns the first error from w.
func (g *Graph[K]) DOT(w io.Writer, opts DOTOptions[K]) error {
	name := opts.Name
	if name == nil {
		name = func(k K) string { return fmt.Sprint(k) }
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph ")
	if opts.GraphName != "" {
		bw.WriteString(dotQuote(opts.GraphName))
		bw.WriteString(" ")
	}
	bw.WriteString("{\n")
	for _, k := range slices.Sorted(maps.Keys(opts.GraphAttrs)) {
		fmt.Fprintf(bw, "\t%s=%s;\n", dotQuote(k), dotQuote(opts.GraphAttrs[k]))
	}

	dense := g.denseIDs()
	for id, alive := range g.live {
		if !alive {
			continue
		}
		k := g.keys[id]
		var attrs map[string]string
		if opts.NodeAttrs != nil {
			attrs = opts.NodeAttrs(k)
		}
		label, ok := attrs["label"]
		if !ok {
			label = name(k)
		}
		fmt.Fprintf(bw, "\t\"n%d\" [label=%s", dense[id], dotQuote(label))
		for _, a := range slices.Sorted(maps.Keys(attrs)) {
			if a != "label" {
				fmt.Fprintf(bw, ", %s=%s", dotQuote(a), dotQuote(attrs[a]))
			}
		}
		bw.WriteString("];\n")
	}
	for id, alive := range g.live {
		if !alive {
			continue
		}
		for _, s := range g.out[id] {
			fmt.Fprintf(bw, "\t\"n%d\" -> \"n%d\";\n", dense[id], dense[s])
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// dotQuote returns s as a DOT double-quoted string. Inside one, DOT gives
// meaning only to \" and to a backslash before a line break; labels further
// read \n, \l, \r and \\ as escapes. So backslashes are doubled, quotes are
// escaped and line breaks become \n, and the label shows s as it is.
func dotQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			// Dropped: a carriage return has no place in a label.
		default:
			if r < 0x20 || r == 0x7f {
				// Other control characters are not printable: show them
				// as a literal \xNN.
				fmt.Fprintf(&b, `\\x%02x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
