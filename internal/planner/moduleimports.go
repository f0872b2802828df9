package planner

import (
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// Import blocks in child modules (Terraform 1.16): `to` is relative to
// the declaring module, and the block is evaluated in every instance of
// it, so a module called with count or for_each imports one object per
// instance. When import blocks of several modules target the same
// resource, the one nearest the root wins, as in Terraform.

// childImport is an import block of a child module.
type childImport struct {
	decl *config.Module
	imp  *config.Import
}

// gatherChildImports collects the import blocks of every child module by
// the resource they target (p.childImports), checking that the target is
// declared; a target an import block of a module nearer the root names
// keeps that one.
func (p *planner) gatherChildImports() diag.Diagnostics {
	var ds diag.Diagnostics
	p.childImports = map[addrs.ConfigResource]childImport{}
	taken := map[addrs.ConfigResource]bool{}
	for _, imp := range p.cfg.Imports {
		taken[addrs.ConfigResource{Module: imp.ToModule.Module(), Resource: imp.To}] = true
	}
	// Breadth first: a module nearer the root is seen first.
	level := []*config.Module{p.cfg}
	for len(level) > 0 {
		var next []*config.Module
		for _, m := range level {
			for _, name := range sortedChildNames(m) {
				next = append(next, m.Children[name])
			}
		}
		for _, m := range next {
			for _, imp := range m.Imports {
				cr := addrs.ConfigResource{Module: joinModule(m.Path, imp.ToModule.Module()), Resource: imp.To}
				if t := p.cfg.Descendant(cr.Module); t == nil || t.ResourceByAddr(imp.To) == nil {
					ds = ds.Append(diag.At(imp.ToRange, "Configuration for import target does not exist",
						"The configuration for the given import target "+cr.String()+" does not exist. All target instances must have an associated configuration to be imported."))
					continue
				}
				if taken[cr] {
					continue
				}
				taken[cr] = true
				p.childImports[cr] = childImport{decl: m, imp: imp}
			}
		}
		level = next
	}
	return ds
}

// expandChildImports expands, into p.imports, the child module import
// block that targets resource cr in module instance mi (if any), in the
// instance of its declaring module that contains mi.
func (p *planner) expandChildImports(cr addrs.ConfigResource, mi addrs.ModuleInstance) diag.Diagnostics {
	ci, ok := p.childImports[cr]
	if !ok {
		return nil
	}
	steps := mi.Steps()
	depth := ci.decl.Path.Depth()
	if depth > len(steps) {
		return nil
	}
	di := addrs.RootModule
	for _, st := range steps[:depth] {
		di = di.Child(st.Name, st.Key)
	}
	if joinInstance(di, ci.imp.ToModule) != mi {
		// The block names another instance of a module below its own.
		return nil
	}
	return p.expandImportBlock(ci.decl, ci.imp, di)
}

// joinModule is the static path rel below m.
func joinModule(m, rel addrs.Module) addrs.Module {
	switch {
	case m.IsRoot():
		return rel
	case rel.IsRoot():
		return m
	}
	return addrs.Module(string(m) + "." + string(rel))
}

// joinInstance is the module instance rel below m.
func joinInstance(m, rel addrs.ModuleInstance) addrs.ModuleInstance {
	switch {
	case m.IsRoot():
		return rel
	case rel.IsRoot():
		return m
	}
	return addrs.ModuleInstance(strings.Join([]string{string(m), string(rel)}, "."))
}

// sortedChildNames returns the names of m's module calls, sorted.
func sortedChildNames(m *config.Module) []string {
	names := make([]string, 0, len(m.Children))
	for name := range m.Children {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
