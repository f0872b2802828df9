package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// invokeSelection is what a plan of -invoke covers, as Terraform 1.16
// plans one: the objects the invoked actions' count, for_each and
// configuration refer to, and those -target names, with everything they
// depend on; nothing else is read back from its provider. An action that
// refers to nothing refreshes nothing.
func (p *planner) invokeSelection() *selection {
	s := &selection{targets: p.opts.Targets, nodes: map[node]bool{}, whole: map[addrs.ConfigResource]bool{}, invoked: true}
	var ds diag.Diagnostics
	var extra []node
	for _, addr := range p.opts.Invoke {
		m := p.cfg.Descendant(addr.Module.Module())
		if m == nil {
			continue
		}
		a := m.Actions[addr.Action]
		if a == nil {
			continue
		}
		refs := exprRefs(&ds, a.Count, a.ForEach)
		if a.Config != nil {
			more, _ := lang.ReferencesInAnyBody(a.Config)
			refs = append(refs, more...)
		}
		for _, ref := range refs {
			for _, n := range refTargets(m, ref) {
				if p.rg.g.Has(n) {
					extra = append(extra, n)
				}
			}
		}
	}
	s.selectTargets(p.rg, extra...)
	for _, n := range extra {
		if n.kind == resourceNode {
			// Every instance of a resource the action refers to.
			s.whole[n.configResource()] = true
		}
	}
	return s
}
