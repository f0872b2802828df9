package ui

import (
	"strconv"
	"strings"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// primR renders a primitive value or change; ty is cty.NilType for a JSON null.
type primR struct {
	noWarnings
	before, after cty.Value
	ty            cty.Type
}

func (r primR) render(b *strings.Builder, n *node, indent int, o ropts) {
	if r.ty == cty.String {
		r.renderString(b, n, indent, o)
		return
	}
	bv, av := primValue(r.before, o), primValue(r.after, o)
	switch n.action {
	case plan.Create:
		b.WriteString(av)
	case plan.Delete:
		b.WriteString(bv)
		b.WriteString(o.nullSuffix(n.action))
	case plan.NoOp:
		b.WriteString(bv)
	default:
		b.WriteString(bv)
		b.WriteString(" ")
		b.WriteString(o.arrow())
		b.WriteString(" ")
		b.WriteString(av)
	}
	b.WriteString(o.forces(n.replace))
}

func primValue(v cty.Value, o ropts) string {
	switch {
	case isNil(v):
		return o.c("[dark_gray]null[reset]")
	case v.Type() == cty.Bool:
		return strconv.FormatBool(v.True())
	case v.Type() == cty.Number:
		return numberString(v)
	case v.Type() == cty.String:
		return strconv.Quote(v.AsString())
	}
	return valueKey(v)
}

// str is a string prepared for display: JSON (rendered as jsonencode),
// multi-line (rendered as a heredoc) or simple.
type str struct {
	s         string
	json      cty.Value // cty.NilVal unless the string is a JSON object or array
	multiline bool
	null      bool
}

func evalString(v cty.Value, o ropts) str {
	if isNil(v) {
		return str{s: o.c("[dark_gray]null[reset]"), null: true}
	}
	s := v.AsString()
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		if ty, err := ctyjson.ImpliedType([]byte(s)); err == nil {
			if jv, err := ctyjson.Unmarshal([]byte(s), ty); err == nil {
				return str{s: s, json: jv}
			}
		}
	}
	if strings.Contains(s, "\n") {
		return str{s: strings.TrimSpace(s), multiline: true}
	}
	return str{s: s}
}

func (s str) simple() string {
	if s.null {
		return s.s
	}
	return strconv.Quote(s.s)
}

func (r primR) renderString(b *strings.Builder, n *node, indent int, o ropts) {
	var lines []string
	heredocLines := func(s string) []string {
		ls := strings.Split(s, "\n")
		for i, l := range ls {
			ls[i] = pad(indent+1) + o.sym(plan.NoOp) + l
		}
		return ls
	}
	switch n.action {
	case plan.Create, plan.NoOp:
		s := evalString(r.after, o)
		if s.json != cty.NilVal {
			if n.action == plan.NoOp {
				renderJSONString(b, n, indent, o, s.json, s.json)
				return
			}
			renderJSONString(b, n, indent, o, cty.NilVal, s.json)
			return
		}
		if !s.multiline {
			b.WriteString(s.simple())
			b.WriteString(o.forces(n.replace))
			return
		}
		lines = heredocLines(s.s)
	case plan.Delete:
		s := evalString(r.before, o)
		if s.null {
			b.WriteString(s.simple())
			b.WriteString(o.forces(n.replace))
			return
		}
		if s.json != cty.NilVal {
			renderJSONString(b, n, indent, o, s.json, cty.NilVal)
			return
		}
		if !s.multiline {
			b.WriteString(s.simple())
			b.WriteString(o.nullSuffix(n.action))
			b.WriteString(o.forces(n.replace))
			return
		}
		lines = heredocLines(s.s)
	default:
		bs, as := evalString(r.before, o), evalString(r.after, o)
		switch {
		case bs.json != cty.NilVal && as.json != cty.NilVal:
			renderJSONString(b, n, indent, o, bs.json, as.json)
			return
		case bs.json != cty.NilVal || as.json != cty.NilVal:
			tc := &node{action: n.action, replace: n.replace, r: typeChangeR{
				before: &node{action: plan.Delete, r: primR{before: r.before, ty: cty.String}},
				after:  &node{action: plan.Create, r: primR{after: r.after, ty: cty.String}},
			}}
			tc.render(b, indent, o)
			return
		case !bs.multiline && !as.multiline:
			b.WriteString(bs.simple())
			b.WriteString(" ")
			b.WriteString(o.arrow())
			b.WriteString(" ")
			b.WriteString(as.simple())
			b.WriteString(o.forces(n.replace))
			return
		}
		bl, al := strings.Split(bs.s, "\n"), strings.Split(as.s, "\n")
		processSlice(bl, al, func(int, int) bool { return false }, func(i, j int) {
			switch {
			case i >= len(bl):
				lines = append(lines, pad(indent+1)+o.sym(plan.Create)+al[j])
			case j >= len(al):
				lines = append(lines, pad(indent+1)+o.sym(plan.Delete)+bl[i])
			default:
				lines = append(lines, pad(indent+1)+o.sym(plan.NoOp)+bl[i])
			}
		})
	}
	b.WriteString("<<-EOT")
	b.WriteString(o.forces(n.replace))
	b.WriteByte('\n')
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	b.WriteByte('\n')
	writeClose(b, indent, o, "EOT")
	b.WriteString(o.nullSuffix(n.action))
}

// renderJSONString renders a string holding JSON as a jsonencode(…) of the
// structural diff of its before and after values.
func renderJSONString(b *strings.Builder, n *node, indent int, o ropts, before, after cty.Value) {
	d := &differ{}
	jd := d.json(side{v: before, explicit: n.action != plan.Create}, side{v: after, explicit: n.action != plan.Delete})
	action := n.action
	jo := o
	jo.overrideNullSuffix = true
	var whitespace, replace string
	if jd.action == plan.NoOp && n.action == plan.Update {
		whitespace = " # whitespace changes"
		if n.replace {
			whitespace = " # whitespace changes force replacement"
		}
		jo.showUnchanged = true
		action = plan.NoOp
	} else {
		replace = o.forces(n.replace)
	}
	if n.action == plan.Create || n.action == plan.Delete {
		action = plan.NoOp
	}
	// Whether the rendering spans lines decides what comes before it, so
	// it is rendered on its own first. A JSON string inside a JSON string
	// is copied once per such level, which stays rare.
	rendered := jd.text(indent+1, jo)
	if strings.Contains(rendered, "\n") {
		b.WriteString("jsonencode(")
		b.WriteString(whitespace)
		b.WriteByte('\n')
		writePad(b, indent+1)
		b.WriteString(o.sym(action))
		b.WriteString(rendered)
		b.WriteString(replace)
		b.WriteByte('\n')
		writeClose(b, indent, o, ")")
		b.WriteString(o.nullSuffix(n.action))
		return
	}
	b.WriteString("jsonencode(")
	b.WriteString(rendered)
	b.WriteString(")")
	b.WriteString(whitespace)
	b.WriteString(replace)
}
