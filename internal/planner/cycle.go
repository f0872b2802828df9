package planner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// cycleDiag reports a cycle among configuration objects with OpenTofu's
// summary, "Cycle: a, b, c", and explains it: each step of the loop with
// the reference that makes it, at its file and line. The diagnostic points
// at the reference the first object makes (or at its declaration);
// removing any one of them breaks the loop. The references are found
// again here, only for the objects of the cycle.
func cycleDiag(root *config.Module, schemaOf schemaLookup, cycle []node, ranges map[node]hcl.Range) diag.Diagnostic {
	names := make([]string, len(cycle))
	for i, n := range cycle {
		names[i] = n.String()
	}
	path := append(slices.Clone(names), names[0])
	var b strings.Builder
	fmt.Fprintf(&b, "The configuration refers to itself in a loop: %s. Break the loop by removing one of these references.\n", strings.Join(path, " → "))
	var subject *hcl.Range
	for i, from := range cycle {
		// An edge from → to means to refers to from.
		to := cycle[(i+1)%len(cycle)]
		if rng := writeCycleStep(&b, root, schemaOf, from, to); rng != nil && i == len(cycle)-1 {
			subject = rng
		}
	}
	d := diag.Errorf("Cycle: "+strings.Join(names, ", "), "%s", strings.TrimRight(b.String(), "\n"))
	if subject != nil {
		d.Subject = subject
	} else if rng, ok := ranges[cycle[0]]; ok {
		d.Subject = &rng
	}
	return d
}

// writeCycleStep writes one step of a cycle: how to refers to from. It
// returns the reference's range, nil when the step is not a reference.
func writeCycleStep(b *strings.Builder, root *config.Module, schemaOf schemaLookup, from, to node) *hcl.Range {
	refs, in := nodeReferences(root, schemaOf, to)
	for _, ref := range refs {
		if !slices.Contains(refTargets(in, ref), from) {
			continue
		}
		rng := ref.Range
		fmt.Fprintf(b, "\n  %s refers to %s at %s:%d", to, from, rng.Filename, rng.Start.Line)
		if text := sourceText(root, rng); text != "" {
			b.WriteString(": " + text)
		}
		return &rng
	}
	if from.kind == providerNode && to.kind == resourceNode {
		fmt.Fprintf(b, "\n  %s uses %s", to, from)
		return nil
	}
	if from.kind == moduleCallNode && to.module == from.module.Child(from.name) {
		fmt.Fprintf(b, "\n  %s is in %s, which waits for what its count, for_each and depends_on refer to", to, from)
		return nil
	}
	fmt.Fprintf(b, "\n  %s refers to %s", to, from)
	return nil
}

// nodeReferences returns the references a configuration object writes and
// the module they are written in: a resource's (resourceReferences), a
// local value's expression, an output's expression, depends_on and
// preconditions, a check's assertions, a module call's count, for_each
// and depends_on, a child module variable's argument in its call, a
// provider block's configuration and for_each.
func nodeReferences(root *config.Module, schemaOf schemaLookup, n node) ([]*lang.Reference, *config.Module) {
	var ds diag.Diagnostics
	m := root.Descendant(n.module)
	if m == nil {
		return nil, nil
	}
	switch n.kind {
	case resourceNode:
		for _, r := range allResources(m) {
			if r.Addr == n.resource {
				refs, _ := resourceReferences(m, r, schemaOf)
				return refs, m
			}
		}
	case localNode:
		if l := m.Locals[n.name]; l != nil {
			return exprRefs(&ds, l.Expr), m
		}
	case outputNode:
		if o := m.Outputs[n.name]; o != nil {
			refs := exprRefs(&ds, o.Expr)
			refs = append(refs, traversalRefs(&ds, o.DependsOn)...)
			for _, c := range o.Preconditions {
				refs = append(refs, exprRefs(&ds, c.Condition, c.ErrorMessage)...)
			}
			return refs, m
		}
	case checkNode:
		for _, c := range m.Checks {
			if c.Name == n.name {
				var refs []*lang.Reference
				for _, a := range c.Asserts {
					refs = append(refs, exprRefs(&ds, a.Condition, a.ErrorMessage)...)
				}
				return refs, m
			}
		}
	case providerNode:
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			if pb := m.ProviderConfigs[key]; providerNodeOf(m, pb) == n {
				return providerReferences(&ds, pb), m
			}
		}
	case moduleCallNode:
		if mc := m.ModuleCalls[n.name]; mc != nil {
			refs := exprRefs(&ds, mc.Count, mc.ForEach, mc.Enabled)
			return append(refs, traversalRefs(&ds, mc.DependsOn)...), m
		}
	case variableNode:
		if m.Parent == nil {
			return nil, nil
		}
		_, name := m.Path.Parent()
		mc := m.Parent.ModuleCalls[name]
		if mc == nil {
			return nil, nil
		}
		args, _ := mc.Config.JustAttributes()
		for _, k := range slices.Sorted(maps.Keys(args)) {
			if k == n.name {
				return exprRefs(&ds, args[k].Expr), m.Parent
			}
		}
	}
	return nil, nil
}

// sourceText returns the text of rng in the configuration's files, or "".
func sourceText(root *config.Module, rng hcl.Range) string {
	src, ok := root.Sources[rng.Filename]
	if !ok || rng.End.Byte > len(src) || rng.Start.Byte > rng.End.Byte {
		return ""
	}
	return string(rng.SliceBytes(src))
}
