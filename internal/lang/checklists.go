package lang

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// lists checks the references of the module's list blocks (query files,
// Terraform 1.14): their count, for_each, include_resource and limit, and
// their config block, which may name other list blocks but not their own.
func (c *checker) lists() {
	for _, l := range c.m.SortedLists() {
		addr := l.Addr()
		self := refScope{self: &addr, selfSummary: "Self-referential block"}
		c.expr(l.Count, self)
		c.expr(l.ForEach, self)
		inst := self
		inst.hasCount, inst.hasForEach = l.Count != nil, l.ForEach != nil
		c.expr(l.IncludeResource, inst)
		c.expr(l.Limit, inst)
		if l.Provider != nil {
			c.expr(l.Provider.KeyExpr, inst)
		}
		if l.Config != nil {
			c.traversals(bodyTraversals(l.Config), inst)
		}
	}
}

// listRef checks a reference to a list block, list.TYPE.NAME.
func (c *checker) listRef(ref *Reference, sc refScope) {
	add := func(summary, detail string) { c.diags = append(c.diags, diag.At(ref.Range, summary, detail)) }
	addr := ref.Resource
	l := c.m.ListResources[addr]
	if l == nil {
		suggestion := ""
		if alt := (addrs.Resource{Mode: addrs.Managed, Type: "list", Name: addr.Type}); c.m.ResourceByAddr(alt) != nil {
			suggestion = fmt.Sprintf("\n\nDid you mean the managed resource %s? If so, please use the fully qualified name of the resource, e.g. resource.%s", alt, alt)
		}
		add("Reference to undeclared resource",
			fmt.Sprintf("A list resource %q %q has not been declared in %s.%s", addr.Type, addr.Name, moduleDisplay(c.m), suggestion))
		return
	}
	if sc.self != nil && *sc.self == addr {
		add(sc.selfSummary, fmt.Sprintf("Configuration for %s may not refer to itself.", addr))
		return
	}
	repeated := l.Count != nil || l.ForEach != nil
	switch {
	case ref.KeyGiven && !repeated:
		add("Unexpected resource instance key",
			fmt.Sprintf(`Because %s does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`, addr))
	case !ref.KeyGiven && len(ref.Remaining) > 0 && l.Count != nil:
		add("Missing resource instance key",
			fmt.Sprintf("Because %s has \"count\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[count.index]", addr, addr))
	case !ref.KeyGiven && len(ref.Remaining) > 0 && l.ForEach != nil:
		add("Missing resource instance key",
			fmt.Sprintf("Because %s has \"for_each\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[each.key]", addr, addr))
	}
}
