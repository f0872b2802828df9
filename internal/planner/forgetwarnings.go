package planner

import (
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// noteForgotten records that the plan forgets the current object of addr
// instead of destroying it, for its warning (forgetWarnings).
func (p *planner) noteForgotten(addr addrs.AbsResourceInstance) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgotten = append(p.forgotten, addr)
}

// forgetWarnings returns OpenTofu's "Resource will be removed from the
// state" warning for each object the plan forgets, in address order, so
// that a plan's output does not depend on the order its objects were
// planned in.
func (p *planner) forgetWarnings() diag.Diagnostics {
	p.mu.Lock()
	addrsSorted := slices.Clone(p.forgotten)
	p.mu.Unlock()
	slices.SortFunc(addrsSorted, func(a, b addrs.AbsResourceInstance) int { return a.Compare(b) })
	var ds diag.Diagnostics
	for _, addr := range addrsSorted {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Resource will be removed from the state",
			Detail: fmt.Sprintf("After this plan is applied, the resource %s will not be managed anymore by rig.\n\nIn case you want to manage the resource again, you will have to import it.", addr)})
	}
	return ds
}
