package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
)

// This file renders diff trees (diff.go) in OpenTofu's human plan syntax:
// four spaces per level, a three-column action symbol and a space before
// each changed line, keys aligned on "=".

// ropts are the options threaded through rendering; renderers copy and
// adjust them for their children.
type ropts struct {
	color bool
	// showUnchanged renders no-op children instead of counting them.
	showUnchanged bool
	// hideSymbols drops the action symbols (state rendering).
	hideSymbols bool
	// overrideNullSuffix suppresses " -> null" on deletions.
	overrideNullSuffix bool
	// overrideForces marks every value "# forces replacement".
	overrideForces bool
	// showSensitive renders sensitive values instead of hiding them
	// (RenderOptions.ShowSensitive).
	showSensitive bool
}

func (o ropts) c(s string) string { return colorize(s, o.color) }

// sym is the action symbol column followed by a space.
func (o ropts) sym(a plan.Action) string {
	if o.hideSymbols {
		return ""
	}
	color := 0
	if o.color {
		color = 1
	}
	if s, ok := symbolColumns[color][a]; ok {
		return s
	}
	return o.c(actionSymbol(a)) + " "
}

// symbolColumns holds sym's result for every action, without color and
// with: a large plan writes one per line.
var symbolColumns = func() (cols [2]map[plan.Action]string) {
	actions := []plan.Action{plan.NoOp, plan.Create, plan.Read, plan.Update, plan.DeleteThenCreate, plan.CreateThenDelete, plan.Delete}
	for color := range cols {
		cols[color] = map[plan.Action]string{}
		for _, a := range actions {
			cols[color][a] = colorize(actionSymbol(a), color == 1) + " "
		}
	}
	return cols
}()

func (o ropts) nullSuffix(a plan.Action) string {
	if !o.overrideNullSuffix && a == plan.Delete {
		return o.c(" [dark_gray]-> null[reset]")
	}
	return ""
}

func (o ropts) forces(replace bool) string {
	if replace || o.overrideForces {
		return o.c(" [red]# forces replacement[reset]")
	}
	return ""
}

func (o ropts) unchanged(kind string, n int) string {
	if n == 1 {
		return o.c(fmt.Sprintf("[dark_gray]# (%d unchanged %s hidden)[reset]", n, kind))
	}
	return o.c(fmt.Sprintf("[dark_gray]# (%d unchanged %ss hidden)[reset]", n, kind))
}

func (o ropts) arrow() string { return o.c("[yellow]->[reset]") }

// actionSymbol is the three-column symbol of an action, with color tags.
func actionSymbol(a plan.Action) string {
	switch a {
	case plan.DeleteThenCreate:
		return "[red]-[reset]/[green]+[reset]"
	case plan.CreateThenDelete:
		return "[green]+[reset]/[red]-[reset]"
	case plan.Create:
		return "  [green]+[reset]"
	case plan.Delete:
		return "  [red]-[reset]"
	case plan.Read:
		return " [cyan]<=[reset]"
	case plan.Update:
		return "  [yellow]~[reset]"
	case plan.NoOp:
		return "   "
	case plan.Forget:
		return "  [red].[reset]"
	case plan.ForgetThenCreate:
		return "[red].[reset]/[green]+[reset]"
	}
	return "  ?"
}

// writeAttrLine writes the start of one "name = value" line of an object or
// block, the name padded to width (counted in runes, as fmt's %-*s pads
// it); the caller writes the value and the newline.
func writeAttrLine(b *strings.Builder, indent int, sym, name string, width int) {
	writePad(b, indent)
	b.WriteString(sym)
	b.WriteString(name)
	for range width - utf8.RuneCountInString(name) {
		b.WriteByte(' ')
	}
	b.WriteString(" = ")
}

// pad is the indentation of a nesting depth, four spaces a level.
func pad(indent int) string {
	if n := 4 * indent; n <= len(padding) {
		return padding[:n]
	}
	return strings.Repeat("    ", indent)
}

// writePad writes the indentation of a nesting depth without building it
// as a string first: a deep value writes one per line.
func writePad(b *strings.Builder, indent int) {
	n := 4 * indent
	for n > len(padding) {
		b.WriteString(padding)
		n -= len(padding)
	}
	b.WriteString(padding[:n])
}

const padding = "                                                                "

// attrName quotes an attribute name that is not a valid identifier.
func attrName(k string) string {
	if plainIdentifier(k) || hclsyntax.ValidIdentifier(k) {
		return k
	}
	return fmt.Sprintf("%q", k)
}

// plainIdentifier reports, without running the lexer, the common case of
// an ASCII identifier: a letter or underscore, then letters, digits,
// underscores and dashes.
func plainIdentifier(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// important attributes are shown even when unchanged.
func important(k string) bool { return k == "id" || k == "name" || k == "tags" }

// renderer prints one kind of node. Every renderer writes into the one
// builder the whole value is rendered into, so that each byte of a deeply
// nested value is written once rather than copied by every enclosing level.
type renderer interface {
	// render writes the node's value, from its first character to its
	// last: a multi-line value ends without a newline, its lines after the
	// first indented for depth indent.
	render(b *strings.Builder, n *node, indent int, o ropts)
	// warnings are comment lines printed above the node's line.
	warnings(n *node, indent int, o ropts) []string
}

type noWarnings struct{}

func (noWarnings) warnings(*node, int, ropts) []string { return nil }

func writeWarnings(b *strings.Builder, n *node, indent int, o ropts) {
	for _, w := range n.r.warnings(n, indent, o) {
		writePad(b, indent)
		b.WriteString(w)
		b.WriteByte('\n')
	}
}

// writeHidden writes the "# (N unchanged KINDs hidden)" line of a level.
func writeHidden(b *strings.Builder, indent int, o ropts, kind string, n int) {
	writePad(b, indent)
	b.WriteString(o.sym(plan.NoOp))
	b.WriteString(o.unchanged(kind, n))
	b.WriteByte('\n')
}

// writeClose writes the closing line of a multi-line value.
func writeClose(b *strings.Builder, indent int, o ropts, closer string) {
	writePad(b, indent)
	b.WriteString(o.sym(plan.NoOp))
	b.WriteString(closer)
}

// writeElem writes one element line of a list or set: the symbol, the
// element and a comma.
func writeElem(b *strings.Builder, e *node, indent int, o ropts) {
	writePad(b, indent)
	b.WriteString(o.sym(e.action))
	e.render(b, indent, o)
	b.WriteString(",\n")
}

// objectR renders an object: a dynamic object, a typed object attribute or
// a nested attribute (which keeps its children's " -> null").
type objectR struct {
	noWarnings
	attrs              map[string]*node
	overrideNullSuffix bool
}

func (r objectR) render(b *strings.Builder, n *node, indent int, o ropts) {
	if len(r.attrs) == 0 {
		b.WriteString("{}")
		b.WriteString(o.nullSuffix(n.action))
		b.WriteString(o.forces(n.replace))
		return
	}
	ao := o
	ao.overrideNullSuffix = r.overrideNullSuffix
	var kb keyBuf
	keys := sortedKeys(r.attrs, &kb)
	width := 0
	for _, k := range keys {
		width = max(width, len(attrName(k)))
	}
	b.WriteString("{")
	b.WriteString(o.forces(n.replace))
	b.WriteByte('\n')
	hidden := 0
	for _, k := range keys {
		child := r.attrs[k]
		co := ao
		if important(k) {
			co.showUnchanged = true
		} else if child.action == plan.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, child, indent+1, co)
		writeAttrLine(b, indent+1, co.sym(child.action), attrName(k), width)
		child.render(b, indent+1, co)
		b.WriteByte('\n')
	}
	if hidden > 0 {
		writeHidden(b, indent+1, o, "attribute", hidden)
	}
	writeClose(b, indent, o, "}")
	b.WriteString(o.nullSuffix(n.action))
}

// mapR renders a map: keys quoted, aligned unless nested.
type mapR struct {
	noWarnings
	elems              map[string]*node
	align              bool
	overrideNullSuffix bool
	overrideForces     bool
}

func (r mapR) render(b *strings.Builder, n *node, indent int, o ropts) {
	selfForces := n.replace && !r.overrideForces
	childForces := n.replace && r.overrideForces
	if len(r.elems) == 0 {
		b.WriteString("{}")
		b.WriteString(o.nullSuffix(n.action))
		b.WriteString(o.forces(selfForces))
		return
	}
	var kb keyBuf
	keys := sortedKeys(r.elems, &kb)
	width := 0
	for _, k := range keys {
		width = max(width, len(fmt.Sprintf("%q", k)))
	}
	eo := o
	eo.overrideNullSuffix = n.action == plan.Delete || r.overrideNullSuffix
	eo.overrideForces = childForces
	b.WriteString("{")
	b.WriteString(o.forces(selfForces))
	b.WriteByte('\n')
	hidden := 0
	for _, k := range keys {
		child := r.elems[k]
		if child.action == plan.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, child, indent+1, o)
		w := 0
		if r.align {
			w = width
		}
		writePad(b, indent+1)
		b.WriteString(eo.sym(child.action))
		fmt.Fprintf(b, "%-*s = ", w, fmt.Sprintf("%q", k))
		child.render(b, indent+1, eo)
		if _, ok := child.r.(objectR); ok {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	if hidden > 0 {
		writeHidden(b, indent+1, o, "element", hidden)
	}
	writeClose(b, indent, o, "}")
	b.WriteString(o.nullSuffix(n.action))
}

// listR renders a list or tuple; with context, the unchanged elements next
// to a change are shown too, since order matters.
type listR struct {
	noWarnings
	elems   []*node
	context bool
}

func (r listR) render(b *strings.Builder, n *node, indent int, o ropts) {
	if len(r.elems) == 0 {
		b.WriteString("[]")
		b.WriteString(o.nullSuffix(n.action))
		b.WriteString(o.forces(n.replace))
		return
	}
	eo := o
	eo.overrideNullSuffix = true
	uo := o
	uo.showUnchanged = true
	b.WriteString("[")
	b.WriteString(o.forces(n.replace))
	b.WriteByte('\n')
	var skipped []*node
	renderNext := false
	for _, e := range r.elems {
		if e.action == plan.NoOp && !renderNext && !o.showUnchanged {
			skipped = append(skipped, e)
			continue
		}
		renderNext = false
		co := eo
		if r.context {
			if len(skipped) > 1 {
				writeHidden(b, indent+1, co, "element", len(skipped)-1)
			}
			if len(skipped) > 0 {
				writeElem(b, skipped[len(skipped)-1], indent+1, uo)
			}
			skipped = nil
			if e.action == plan.NoOp {
				co = uo
			} else {
				renderNext = true
			}
		}
		writeWarnings(b, e, indent+1, co)
		writeElem(b, e, indent+1, co)
	}
	if len(skipped) > 0 {
		writeHidden(b, indent+1, o, "element", len(skipped))
	}
	writeClose(b, indent, o, "]")
	b.WriteString(o.nullSuffix(n.action))
}

// setR renders a set; nested-attribute sets push "# forces replacement"
// down to their elements.
type setR struct {
	noWarnings
	elems          []*node
	overrideForces bool
}

func (r setR) render(b *strings.Builder, n *node, indent int, o ropts) {
	selfForces := n.replace && !r.overrideForces
	if len(r.elems) == 0 {
		b.WriteString("[]")
		b.WriteString(o.nullSuffix(n.action))
		b.WriteString(o.forces(selfForces))
		return
	}
	eo := o
	eo.overrideNullSuffix = true
	eo.overrideForces = n.replace && r.overrideForces
	b.WriteString("[")
	b.WriteString(o.forces(selfForces))
	b.WriteByte('\n')
	hidden := 0
	for _, e := range r.elems {
		if e.action == plan.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, e, indent+1, o)
		writeElem(b, e, indent+1, eo)
	}
	if hidden > 0 {
		writeHidden(b, indent+1, o, "element", hidden)
	}
	writeClose(b, indent, o, "]")
	b.WriteString(o.nullSuffix(n.action))
}

// unknownR renders a value known only after apply.
type unknownR struct {
	noWarnings
	before *node // nil when there was no value before
}

func (r unknownR) render(b *strings.Builder, n *node, indent int, o ropts) {
	if r.before != nil {
		bo := o
		bo.overrideNullSuffix = true
		r.before.render(b, indent, bo)
		b.WriteString(" -> ")
	}
	b.WriteString("(known after apply)")
	b.WriteString(o.forces(n.replace))
}

// writeOnlyR renders a write-only attribute, whose value no plan holds.
type writeOnlyR struct {
	noWarnings
}

func (writeOnlyR) render(b *strings.Builder, n *node, indent int, o ropts) {
	b.WriteString("(write-only attribute)")
	b.WriteString(o.forces(n.replace))
	b.WriteString(o.nullSuffix(n.action))
}

// sensR renders a sensitive value.
type sensR struct {
	inner         *node
	before, after bool
}

func (r sensR) render(b *strings.Builder, n *node, indent int, o ropts) {
	if o.showSensitive {
		r.inner.render(b, indent, o)
		return
	}
	b.WriteString(marks.Redacted)
	b.WriteString(o.nullSuffix(n.action))
	b.WriteString(o.forces(n.replace))
}

func (r sensR) warnings(_ *node, indent int, o ropts) []string {
	if r.before == r.after || r.inner.action == plan.Create || r.inner.action == plan.Delete {
		return nil
	}
	var w string
	if r.before {
		w = o.c(fmt.Sprintf("  # [yellow]Warning[reset]: this attribute value will no longer be marked as sensitive\n%s  # after applying this change.", pad(indent)))
	} else {
		w = o.c(fmt.Sprintf("  # [yellow]Warning[reset]: this attribute value will be marked as sensitive and will not\n%s  # display in UI output after applying this change.", pad(indent)))
	}
	if r.inner.action == plan.NoOp {
		w += " The value is unchanged."
	}
	return []string{w}
}

// typeChangeR renders a dynamic value whose JSON type changes.
type typeChangeR struct {
	noWarnings
	before, after *node
}

func (r typeChangeR) render(b *strings.Builder, _ *node, indent int, o ropts) {
	o.overrideNullSuffix = true
	r.before.render(b, indent, o)
	b.WriteString(" ")
	b.WriteString(o.arrow())
	b.WriteString(" ")
	r.after.render(b, indent, o)
}

// blockGroup is the diff of one nested block type: one element for a
// single block, several for a list, set or map (keys then hold the labels).
type blockGroup struct {
	elems   []*node
	keys    []string
	replace bool
}

// blockR renders a resource body or a nested block.
type blockR struct {
	noWarnings
	attrs  map[string]*node
	groups map[string]blockGroup
}

func (r blockR) render(b *strings.Builder, n *node, indent int, o ropts) {
	if len(r.attrs) == 0 && len(r.groups) == 0 {
		b.WriteString("{}")
		b.WriteString(o.forces(n.replace))
		return
	}
	var kb keyBuf
	keys := sortedKeys(r.attrs, &kb)
	width := 0
	for _, k := range keys {
		width = max(width, len(attrName(k)))
	}
	b.WriteString("{")
	b.WriteString(o.forces(n.replace))
	b.WriteByte('\n')
	hidden := 0
	for _, k := range keys {
		child := r.attrs[k]
		co := o
		if important(k) {
			co.showUnchanged = true
		} else if child.action == plan.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, child, indent+1, co)
		writeAttrLine(b, indent+1, co.sym(child.action), attrName(k), width)
		child.render(b, indent+1, co)
		b.WriteByte('\n')
	}
	if hidden > 0 {
		writeHidden(b, indent+1, o, "attribute", hidden)
	}
	hiddenBlocks := 0
	var gb keyBuf
	for _, name := range sortedKeys(r.groups, &gb) {
		g := r.groups[name]
		separated := false
		for i, e := range g.elems {
			if e.action == plan.NoOp && !o.showUnchanged {
				hiddenBlocks++
				continue
			}
			if !separated && len(r.attrs) > 0 {
				b.WriteByte('\n')
				separated = true
			}
			bo := o
			bo.overrideForces = g.replace
			writeWarnings(b, e, indent+1, bo)
			writePad(b, indent+1)
			b.WriteString(bo.sym(e.action))
			b.WriteString(attrName(name))
			if g.keys != nil {
				fmt.Fprintf(b, " %q", g.keys[i])
			}
			b.WriteByte(' ')
			e.render(b, indent+1, bo)
			b.WriteByte('\n')
		}
	}
	if hiddenBlocks > 0 {
		b.WriteByte('\n')
		writeHidden(b, indent+1, o, "block", hiddenBlocks)
	}
	writeClose(b, indent, o, "}")
}
