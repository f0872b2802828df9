package apply

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// Rule names the ordering rule an edge X→Y of the operation graph
// implements (docs/design.md §4; docs/order-of-operations.md lists them by
// these names). Order adds every edge with its rule.
type Rule uint8

const (
	// RuleUnknown: the graph was built without recording rules, or there
	// is no such edge.
	RuleUnknown Rule = iota
	// RuleDependency: Y (a create, update or read) depends on X's resource,
	// so it waits for X's creates and updates (rule 1).
	RuleDependency
	// RuleAfterDependencyDelete: Y (a create or update) depends on X's
	// resource, whose object X deletes first (rules 3 and 4).
	RuleAfterDependencyDelete
	// RuleBeforeCBDDelete: X (a create or update) depends on Y's resource,
	// which is create_before_destroy: its old object is deleted only after
	// its dependents are updated (rule 5, the inverted edge).
	RuleBeforeCBDDelete
	// RuleReverseDestroy: X's object depended on Y's resource, so it is
	// deleted first: destroy runs in reverse of creation (rule 2).
	RuleReverseDestroy
	// RuleDeleteBeforeDependencyCreate: X's object depended on Y's resource
	// and is deleted before Y creates or updates it (rules 3 and 4).
	RuleDeleteBeforeDependencyCreate
	// RuleCBDDeleteAfterDependencyCreate: Y deletes a create_before_destroy
	// object that depended on X's resource, after X (rule 5, inverted).
	RuleCBDDeleteAfterDependencyCreate
	// RuleReplaceDeleteFirst: a replacement deletes the old object before
	// creating the new one (rule 3, the default).
	RuleReplaceDeleteFirst
	// RuleReplaceCreateFirst: a create_before_destroy replacement creates
	// the new object before deleting the deposed one (rule 5).
	RuleReplaceCreateFirst
	// RuleBarrier: the edge joins a barrier node to one of the operations of
	// the resource it stands for.
	RuleBarrier
	// RuleDeposedDeleteLast: X creates or updates the current object of an
	// instance that Y deletes an object of, deposed by an earlier run
	// (rule 5: deposed objects are destroyed after their successor exists).
	RuleDeposedDeleteLast
	// RuleRollingBatch: X and Y are create_before_destroy replacements of
	// one resource with a health gate (rig.hcl); Y's batch starts once X's,
	// the batch before, has passed its gate.
	RuleRollingBatch
)

// String returns the rule's name, as `rig explain -json` writes it.
func (r Rule) String() string {
	switch r {
	case RuleDependency:
		return "dependency"
	case RuleAfterDependencyDelete:
		return "after-dependency-delete"
	case RuleBeforeCBDDelete:
		return "before-cbd-delete"
	case RuleReverseDestroy:
		return "reverse-of-creation"
	case RuleDeleteBeforeDependencyCreate:
		return "delete-before-dependency-create"
	case RuleCBDDeleteAfterDependencyCreate:
		return "cbd-delete-after-dependency-create"
	case RuleReplaceDeleteFirst:
		return "replace-delete-first"
	case RuleReplaceCreateFirst:
		return "replace-create-first"
	case RuleBarrier:
		return "barrier"
	case RuleDeposedDeleteLast:
		return "deposed-delete-last"
	case RuleRollingBatch:
		return "rolling-batch"
	}
	return "unknown"
}

// EdgeRule returns the rule of the edge from→to: RuleUnknown when the graph
// was built without OrderOptions.Rules or has no such edge.
func (g *Graph) EdgeRule(from, to Op) Rule {
	return g.rules[edge{from, to}]
}

// RecordsRules reports whether the graph was built with its edges' rules.
func (g *Graph) RecordsRules() bool { return g.rules != nil }

// DescribeEdge returns the rule of the edge from→to as a sentence naming
// the resources: "dependency: terraform_data.b depends on terraform_data.a".
// "" when the rule is unknown.
func (g *Graph) DescribeEdge(from, to Op) string {
	r := g.EdgeRule(from, to)
	fr, tr := from.Addr.ContainingResource(), to.Addr.ContainingResource()
	switch r {
	case RuleDependency:
		return fmt.Sprintf("dependency: %s depends on %s", tr, fr)
	case RuleAfterDependencyDelete:
		return fmt.Sprintf("dependency: %s depends on %s, whose old object is destroyed first", tr, fr)
	case RuleBeforeCBDDelete:
		return fmt.Sprintf("create_before_destroy: %s depends on %s, whose old object is destroyed after its dependents are updated%s", fr, tr, g.cbdNote(to))
	case RuleReverseDestroy:
		return fmt.Sprintf("reverse of creation: %s depended on %s", fr, tr)
	case RuleDeleteBeforeDependencyCreate:
		return fmt.Sprintf("destroy before dependency: %s depended on %s, which is created or updated after it is destroyed", fr, tr)
	case RuleCBDDeleteAfterDependencyCreate:
		return fmt.Sprintf("create_before_destroy: the old object of %s depended on %s and is destroyed after it%s", tr, fr, g.cbdNote(to))
	case RuleReplaceDeleteFirst:
		return "replacement: destroy before create"
	case RuleReplaceCreateFirst:
		return "create_before_destroy: create before destroying the deposed object" + g.cbdNote(to)
	case RuleDeposedDeleteLast:
		return "create_before_destroy: an object deposed by an earlier run is destroyed after the instance's current object is created or updated"
	case RuleRollingBatch:
		batch := 0
		if c := g.Changes[to]; c != nil && c.Gate != nil {
			batch = c.Gate.Batch
		}
		return fmt.Sprintf("rolling replacement: batch %d of %s starts once batch %d has passed its health gate (rig.hcl)", batch+1, tr, batch)
	case RuleBarrier:
		if from.IsBarrier() {
			return "stands for every operation of " + fr.String()
		}
		return "stands for every operation of " + tr.String()
	}
	return ""
}

// cbdNote says where a create_before_destroy delete's setting comes from:
// " (create_before_destroy inherited from X)", or "" for its own setting.
func (g *Graph) cbdNote(op Op) string {
	c := g.Changes[op]
	if c == nil || c.CBDInheritedFrom == (addrs.AbsResource{}) {
		return ""
	}
	return " (create_before_destroy inherited from " + c.CBDInheritedFrom.String() + ")"
}

// cycleDiag reports a cycle of operations as a path, each edge with its
// rule, and names the create_before_destroy settings that inverted edges of
// it (removing one of them, or the dependency, breaks the cycle), pointing
// at the first when the graph knows the configuration. The summary is
// OpenTofu's "Cycle: a, b, c".
func (g *Graph) cycleDiag(cycle []Op) diag.Diagnostic {
	var b strings.Builder
	b.WriteString("The planned operations cannot be ordered: ")
	for i, op := range cycle {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(g.label(op))
	}
	b.WriteString(" → " + g.label(cycle[0]) + ".\n")
	for i, op := range cycle {
		next := cycle[(i+1)%len(cycle)]
		rule := g.DescribeEdge(op, next)
		if rule == "" {
			rule = "ordering rule not recorded"
		}
		fmt.Fprintf(&b, "\n  %s before %s: %s", g.label(op), g.label(next), rule)
	}
	var causes []string
	var subject *hcl.Range
	seen := map[string]bool{}
	for _, op := range cycle {
		c := g.Changes[op]
		if c == nil || !c.CreateBeforeDestroy {
			continue
		}
		src := c.Addr.ContainingResource().Unkeyed()
		var why string
		if c.CBDInheritedFrom != (addrs.AbsResource{}) {
			src = c.CBDInheritedFrom
			why = fmt.Sprintf("%s is create_before_destroy because %s, which depends on it, sets create_before_destroy", c.Addr, c.CBDInheritedFrom)
		} else {
			why = fmt.Sprintf("%s sets create_before_destroy", c.Addr)
		}
		if rng := g.cbdSetting(src); rng != nil {
			why += " (" + rangeString(*rng) + ")"
			if subject == nil {
				subject = rng
			}
		}
		if !seen[why] {
			seen[why] = true
			causes = append(causes, why)
		}
	}
	if len(causes) > 0 {
		b.WriteString("\n\nThe cycle comes from lifecycle settings: " + strings.Join(causes, "; ") +
			". Removing the setting, or the dependency on a resource that must be destroyed first, breaks it.")
	}
	plain := make([]string, len(cycle))
	for i, op := range cycle {
		plain[i] = g.label(op)
	}
	d := diag.Errorf("Cycle: "+strings.Join(plain, ", "), "%s", b.String())
	d.Subject = subject
	return d
}

// cbdSetting returns where resource r's create_before_destroy is written,
// or nil when the graph has no configuration or r sets none.
func (g *Graph) cbdSetting(r addrs.AbsResource) *hcl.Range {
	if g.config == nil {
		return nil
	}
	rc := g.config.ConfigResource(r.InConfig())
	if rc == nil || rc.Managed == nil || !rc.Managed.CreateBeforeDestroySet {
		return nil
	}
	rng := rc.Managed.CreateBeforeDestroyRange
	return &rng
}

// rangeString writes a source position as "main.tf:7".
func rangeString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}
