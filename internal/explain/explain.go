package explain

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/ui"
)

// Report is what a plan does to the objects one address names, and why.
type Report struct {
	// Address is the address explained.
	Address Address
	// Objects holds one entry per object with a planned change (no-ops
	// included), in the plan's order.
	Objects []Object
	// Actions holds the plan's invocations of the action an action
	// address names, in the plan's order.
	Actions []ActionReport
	// Ephemerals holds the ephemeral resource an ephemeral resource's
	// address names, when ExplainWith was told what uses it.
	Ephemerals []EphemeralReport
}

// Extras is what explains more than a plan and its configuration tell.
type Extras struct {
	// Schemas give the actions' schemas, so that their configuration's
	// sensitive attributes are redacted as the plan redacts them; nil
	// redacts what is marked sensitive alone.
	Schemas ui.SchemaSource
	// Ephemerals are the users of each ephemeral resource
	// (planner.EphemeralUsers); nil when unknown.
	Ephemerals map[addrs.ConfigResource]planner.EphemeralUse
}

// Object is one object's planned change explained.
type Object struct {
	Addr   addrs.ObjectAddr
	Change *plan.ResourceInstanceChange
	// Reasons says why the change does what it does.
	Reasons []plan.Reason
	// Declared is where the resource block is written; nil when the
	// configuration no longer has it (or was not given).
	Declared *hcl.Range
	// CBD is the object's create_before_destroy status.
	CBD CBD
	// Operations are the object's operations in the operation graph, in
	// order of their steps; none for a no-op.
	Operations []Operation
	// Refresh is how the plan treated the object the state recorded:
	// read back, planned as recorded, or not read (-refresh=false).
	Refresh Refresh
	// Gate is the health gate of the object's replacement; nil for none.
	Gate *Gate
}

// CBD is an object's create_before_destroy status.
type CBD struct {
	// Enabled is the effective setting.
	Enabled bool
	// From is the resource whose setting it inherits; zero for its own.
	From addrs.AbsResource
	// Path is the dependency path from From to the object's resource, each
	// depending on the next; nil unless inherited.
	Path []addrs.AbsResource
	// Setting is where the lifecycle setting (the object's own, or From's)
	// is written; nil when unknown.
	Setting *hcl.Range
}

// Operation is one operation of the operation graph explained.
type Operation struct {
	Op apply.Op
	// Label names the operation as the order of operations does.
	Label string
	// Step is its step number in the order of operations (from 1).
	Step int
	// WaitsFor are the operations it waits for; WaitedForBy those that wait
	// for it. Both list the graph's direct edges (not reduced), looking
	// through the barrier nodes that stand for every operation of a
	// resource.
	WaitsFor, WaitedForBy []Edge
	// Actions are the actions the operation runs, in order (actions.go).
	Actions []Action
	// Ephemerals are the ephemeral resources the operation uses, when
	// ExplainWith was told what uses them: apply opens each before the
	// first operation that uses it and closes it after the last.
	Ephemerals []addrs.ConfigResource
}

// Edge is one edge of the operation graph seen from one of its ends.
type Edge struct {
	// Other is the operation at the other end (for a barrier, the group it
	// stands for); Label names it as the order of operations does.
	Other apply.Op
	Label string
	// Step is Other's step; 0 for a group.
	Step int
	// Rule is the ordering rule of the edge and Description says it with
	// the resources' names.
	Rule        apply.Rule
	Description string
	// Sources are where the dependency behind the edge is written: the
	// references (direct or through local values), depends_on entries and
	// module depends_on that make the dependent depend on the dependency.
	// Empty when it comes another way (variables, module outputs, data
	// sources) or only from the dependencies recorded in state (Recorded).
	Sources []Source
	// Recorded is set when the dependent's configuration is gone, so the
	// dependency comes from what the state records.
	Recorded bool
}

// Source is a place in the configuration that explains something.
type Source struct {
	// What says what is written there: "reference", "reference through
	// local.NAME", "depends_on", "module depends_on", "provider
	// configuration" (of the provider block that configures the
	// dependent), "provider configuration through local.NAME".
	What string
	// Text is the source text ("terraform_data.a.output").
	Text  string
	Range hcl.Range
}

// Explain explains the objects of p that addr names, using g, p's
// operation graph built with its rules (apply.OrderWith with
// OrderOptions.Rules), and cfg, the configuration p was made from (nil
// when unknown: the report then has no source locations). ok is false when
// addr names no object of the plan.
func Explain(p *plan.Plan, g *apply.Graph, cfg *config.Module, addr Address) (rep Report, ok bool) {
	return ExplainWith(p, g, cfg, addr, Extras{})
}

// ExplainWith is Explain with what x tells: an action address explains
// the plan's invocations of the action (what fires each, when it runs and
// its configuration, sensitive values redacted), and, with the users of
// the ephemeral resources, an ephemeral resource's address explains when
// apply opens it and after which operation it closes it.
func ExplainWith(p *plan.Plan, g *apply.Graph, cfg *config.Module, addr Address, x Extras) (rep Report, ok bool) {
	rep.Address = addr
	if addr.IsAction {
		rep.Actions = explainActions(p, g, newSources(cfg), addr, x.Schemas, stepNumbers(g))
		return rep, len(rep.Actions) > 0
	}
	if t := addr.Target; t.Kind != addrs.ModuleTarget && t.Resource.Mode == addrs.Ephemeral && x.Ephemerals != nil {
		r := addrs.ConfigResource{Module: t.Module.Module(), Resource: t.Resource}
		if uses, found := x.Ephemerals[r]; found {
			rep.Ephemerals = append(rep.Ephemerals, explainEphemeral(g, newSources(cfg), r, uses, stepNumbers(g)))
		}
		return rep, len(rep.Ephemerals) > 0
	}
	why := plan.NewReasonIndex(p)
	ops := map[addrs.ObjectAddr][]apply.Op{}
	for op, c := range g.Changes {
		ops[c.ObjectAddr()] = append(ops[c.ObjectAddr()], op)
	}
	steps := stepNumbers(g)
	src := newSources(cfg)
	uses := apply.EphemeralUses(g, x.Ephemerals)
	for _, c := range p.Changes {
		if !addr.matches(c) {
			continue
		}
		o := Object{Addr: c.ObjectAddr(), Change: c, Reasons: why.Reasons(c), Refresh: refreshOf(p, c), Gate: gateOf(c, src)}
		if r := src.resource(c.Addr.ContainingResource()); r != nil {
			o.Declared = &r.DeclRange
		}
		o.CBD = CBD{Enabled: c.CreateBeforeDestroy, From: c.CBDInheritedFrom, Path: why.CBDPath(c)}
		if c.CreateBeforeDestroy {
			owner := c.Addr.ContainingResource()
			if c.CBDInheritedFrom != (addrs.AbsResource{}) {
				owner = c.CBDInheritedFrom
			}
			o.CBD.Setting = src.cbdSetting(owner)
		}
		mine := ops[o.Addr]
		slices.SortFunc(mine, func(a, b apply.Op) int { return steps[a] - steps[b] })
		for _, op := range mine {
			eo := explainOp(g, op, steps, src)
			eo.Actions = actionsOf(p, op, c, src)
			eo.Ephemerals = uses[op]
			o.Operations = append(o.Operations, eo)
		}
		rep.Objects = append(rep.Objects, o)
	}
	return rep, len(rep.Objects) > 0
}

// stepNumbers numbers the operations of g as the order of operations
// does: waves holding only barriers are not steps.
func stepNumbers(g *apply.Graph) map[apply.Op]int {
	out := map[apply.Op]int{}
	step := 0
	for _, wave := range g.Waves() {
		counted := false
		for _, op := range wave {
			if op.IsBarrier() {
				continue
			}
			if !counted {
				step++
				counted = true
			}
			out[op] = step
		}
	}
	return out
}

func explainOp(g *apply.Graph, op apply.Op, steps map[apply.Op]int, src *sources) Operation {
	o := Operation{Op: op, Label: ui.DescribeOp(g, op), Step: steps[op]}
	edge := func(other, from, to apply.Op) Edge {
		e := Edge{Other: other, Label: ui.DescribeOp(g, other), Step: steps[other], Rule: g.EdgeRule(from, to), Description: g.DescribeEdge(from, to)}
		e.Sources, e.Recorded = src.forEdge(e.Rule, from, to)
		return e
	}
	// What op waits for, looking through the barrier before its own group.
	var before func(to apply.Op)
	seenPred := map[apply.Op]bool{}
	before = func(to apply.Op) {
		for _, pred := range g.G.Predecessors(to) {
			if seenPred[pred] {
				continue
			}
			seenPred[pred] = true
			if pred.Kind == apply.OpBarrierBefore {
				before(pred)
				continue
			}
			o.WaitsFor = append(o.WaitsFor, edge(pred, pred, to))
		}
	}
	before(op)
	var after func(from apply.Op)
	seenSucc := map[apply.Op]bool{}
	after = func(from apply.Op) {
		for _, succ := range g.G.Successors(from) {
			if seenSucc[succ] {
				continue
			}
			seenSucc[succ] = true
			if succ.Kind == apply.OpBarrierAfter {
				after(succ)
				continue
			}
			o.WaitedForBy = append(o.WaitedForBy, edge(succ, from, succ))
		}
	}
	after(op)
	byStep := func(a, b Edge) int {
		if a.Step != b.Step {
			return a.Step - b.Step
		}
		if a.Label < b.Label {
			return -1
		}
		if a.Label > b.Label {
			return 1
		}
		return 0
	}
	slices.SortFunc(o.WaitsFor, byStep)
	slices.SortFunc(o.WaitedForBy, byStep)
	return o
}
