package planner

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// listOrder returns the list blocks of m in an order that runs every list
// block after those its arguments refer to (directly, or through local
// values): a list block's config may use another's results. Blocks that
// do not depend on each other keep file order. A cycle is an error. The
// map holds the list blocks each refers to.
func listOrder(m *config.Module) ([]*config.List, map[addrs.Resource][]addrs.Resource, diag.Diagnostics) {
	lists := m.SortedLists()
	deps := map[addrs.Resource][]addrs.Resource{}
	for _, l := range lists {
		deps[l.Addr()] = listDependencies(m, l)
	}
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[addrs.Resource]int{}
	var order []*config.List
	var ds diag.Diagnostics
	var path []addrs.Resource
	var visit func(l *config.List)
	visit = func(l *config.List) {
		addr := l.Addr()
		switch state[addr] {
		case done:
			return
		case visiting:
			start := 0
			for i, a := range path {
				if a == addr {
					start = i
				}
			}
			names := make([]string, 0, len(path)-start+1)
			for _, a := range path[start:] {
				names = append(names, a.String())
			}
			names = append(names, addr.String())
			ds = ds.Append(diag.At(l.DeclRange, "Cycle between list blocks",
				fmt.Sprintf("The list blocks refer to each other's results in a cycle: %s.", strings.Join(names, " → "))))
			return
		}
		state[addr] = visiting
		path = append(path, addr)
		for _, d := range deps[addr] {
			if dl := m.ListResources[d]; dl != nil {
				visit(dl)
			}
		}
		path = path[:len(path)-1]
		state[addr] = done
		order = append(order, l)
	}
	for _, l := range lists {
		visit(l)
		if ds.HasErrors() {
			return nil, nil, ds
		}
	}
	return order, deps, ds
}

// listDependencies returns the list blocks l refers to, following local
// values.
func listDependencies(m *config.Module, l *config.List) []addrs.Resource {
	var refs []*lang.Reference
	for _, expr := range []hcl.Expression{l.Count, l.ForEach, l.IncludeResource, l.Limit} {
		more, _ := lang.ReferencesInExpr(expr)
		refs = append(refs, more...)
	}
	if l.Provider != nil {
		more, _ := lang.ReferencesInExpr(l.Provider.KeyExpr)
		refs = append(refs, more...)
	}
	if l.Config != nil {
		more, _ := lang.ReferencesInAnyBody(l.Config)
		refs = append(refs, more...)
	}
	var out []addrs.Resource
	seenList := map[addrs.Resource]bool{}
	seenLocal := map[string]bool{}
	for len(refs) > 0 {
		ref := refs[0]
		refs = refs[1:]
		switch {
		case ref.Kind == lang.ResourceRef && ref.Resource.Mode == addrs.List:
			if !seenList[ref.Resource] {
				seenList[ref.Resource] = true
				out = append(out, ref.Resource)
			}
		case ref.Kind == lang.LocalValue && !seenLocal[ref.Name]:
			seenLocal[ref.Name] = true
			if loc := m.Locals[ref.Name]; loc != nil {
				more, _ := lang.ReferencesInExpr(loc.Expr)
				refs = append(refs, more...)
			}
		}
	}
	return out
}
