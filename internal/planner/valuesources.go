package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// ValueSources lists, for each output value and each check block of a
// configuration tree, the resources its value is computed from: those it
// refers to, directly or through locals, variables, module calls and other
// outputs. An apply that failed part-way evaluates only the outputs and
// checks none of whose resources failed, as OpenTofu does.
type ValueSources struct {
	outputs map[moduleName][]addrs.ConfigResource
	checks  map[moduleName][]addrs.ConfigResource
}

// moduleName names an output or check block in one module (all its instances).
type moduleName struct {
	module string // addrs.Module.String()
	name   string
}

// Output returns the resources output name of module m is computed from.
func (v ValueSources) Output(m addrs.Module, name string) []addrs.ConfigResource {
	return v.outputs[moduleName{m.String(), name}]
}

// Check returns the resources the assertions of check block name of
// module m are computed from.
func (v ValueSources) Check(m addrs.Module, name string) []addrs.ConfigResource {
	return v.checks[moduleName{m.String(), name}]
}

// ValueSourcesOf finds the value sources of every output and check block
// of the tree below cfg. It needs no schemas: the walk stops at resources.
func ValueSourcesOf(cfg *config.Module) (ValueSources, diag.Diagnostics) {
	rg, ds := buildRefGraph(cfg, func(*config.Module, *config.Resource) (*provider.Block, bool) { return nil, false }, plan.ReducedDependencies)
	out := ValueSources{outputs: map[moduleName][]addrs.ConfigResource{}, checks: map[moduleName][]addrs.ConfigResource{}}
	if ds.HasErrors() {
		return out, ds
	}
	for _, n := range rg.g.Nodes() {
		var into map[moduleName][]addrs.ConfigResource
		switch n.kind {
		case outputNode:
			into = out.outputs
		case checkNode:
			into = out.checks
		default:
			continue
		}
		into[moduleName{n.module.String(), n.name}] = resourcesBehind(rg, n)
	}
	return out, ds
}

// resourcesBehind returns the resources n's value comes from: the resource
// nodes reached from n against the reference edges without passing
// through another resource.
func resourcesBehind(rg *refGraph, n node) []addrs.ConfigResource {
	seen := map[node]bool{n: true}
	queue := []node{n}
	var out []addrs.ConfigResource
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, p := range rg.g.Predecessors(cur) {
			if seen[p] {
				continue
			}
			seen[p] = true
			if p.kind == resourceNode {
				out = append(out, p.configResource())
				continue
			}
			queue = append(queue, p)
		}
	}
	return out
}
