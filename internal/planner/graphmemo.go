package planner

import (
	"maps"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// graphKey names a loaded graph: the configuration it was built from,
// the providers its schemas came from and its dependency mode.
type graphKey struct {
	cfg       weak.Pointer[config.Module]
	providers *provider.Set
	mode      plan.DependencyMode
}

// loadedGraph is what loadGraph computes without errors, never modified
// once stored.
type loadedGraph struct {
	schemas map[addrs.ConfigResource]provider.Schema
	rg      *refGraph
	cbd     map[addrs.ConfigResource]cbdSource
	diags   diag.Diagnostics
}

// loadedGraphs holds the graphs validation loaded for the plan that
// follows on the same configuration (ValidateOptions.ForPlan), so that
// the plan does not build them again. An entry goes when its plan takes
// it or its configuration is collected.
var loadedGraphs sync.Map // graphKey → *loadedGraph

// keepGraph stores what p's loadGraph computed, without errors, for the
// next plan of p's configuration with the same providers and mode.
func (p *planner) keepGraph(ds diag.Diagnostics) {
	if p.rg == nil || ds.HasErrors() {
		return
	}
	key := graphKey{cfg: weak.Make(p.cfg), providers: p.providers, mode: p.opts.Dependencies}
	g := &loadedGraph{schemas: maps.Clone(p.schemas), rg: p.rg, cbd: p.cbd, diags: slices.Clone(ds)}
	if _, loaded := loadedGraphs.Swap(key, g); !loaded {
		runtime.AddCleanup(p.cfg, func(k graphKey) { loadedGraphs.Delete(k) }, key)
	}
}

// takeGraph gives p the graph validation kept for it, if any, and
// returns its diagnostics and true.
func (p *planner) takeGraph() (diag.Diagnostics, bool) {
	key := graphKey{cfg: weak.Make(p.cfg), providers: p.providers, mode: p.opts.Dependencies}
	v, ok := loadedGraphs.LoadAndDelete(key)
	if !ok {
		return nil, false
	}
	g := v.(*loadedGraph)
	maps.Copy(p.schemas, g.schemas)
	p.rg, p.cbd = g.rg, g.cbd
	return slices.Clone(g.diags), true
}
