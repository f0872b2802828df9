package planner

import (
	"context"
	"slices"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ephemeral"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// EphemeralUse is what uses one ephemeral resource during a run: the
// resources whose planning or applying evaluates its value, directly or
// through locals, variables, outputs, module calls and other ephemeral
// resources, and the provider configurations configured from it. Once
// all of them are done the resource is closed.
type EphemeralUse struct {
	// Resources are the managed, data and ephemeral resources that use it.
	Resources map[addrs.ConfigResource]bool
	// Providers are the provider blocks configured from it (with no
	// instance key); every operation of a resource they serve uses it.
	Providers []addrs.AbsProviderConfig
}

// UsesProvider reports whether pc (of any instance of its module, any
// instance key) is configured from the ephemeral resource.
func (u EphemeralUse) UsesProvider(pc addrs.AbsProviderConfig) bool {
	pc.Key = addrs.NoKey
	m := pc.Module.Module()
	return slices.ContainsFunc(u.Providers, func(p addrs.AbsProviderConfig) bool {
		return p.Provider == pc.Provider && p.Alias == pc.Alias && p.Module.Module() == m
	})
}

// EphemeralUsers returns what uses each ephemeral resource of the
// configuration tree cfg, whose resources have the schemas schemaOf gives
// (for the references in their bodies): nil when cfg has no ephemeral
// resource.
func EphemeralUsers(cfg *config.Module, schemaOf func(m *config.Module, r *config.Resource) (*provider.Block, bool)) (map[addrs.ConfigResource]EphemeralUse, diag.Diagnostics) {
	if !hasEphemeralResources(cfg) {
		return nil, nil
	}
	rg, ds := buildRefGraph(cfg, schemaOf, plan.ReducedDependencies)
	if ds.HasErrors() {
		return nil, ds
	}
	out := map[addrs.ConfigResource]EphemeralUse{}
	for e, users := range ephemeralUserNodes(rg) {
		use := EphemeralUse{Resources: map[addrs.ConfigResource]bool{}}
		for _, u := range users {
			switch u.kind {
			case resourceNode:
				use.Resources[u.configResource()] = true
			case providerNode:
				use.Providers = append(use.Providers, providerBlockAddr(cfg, u))
			}
		}
		out[e.configResource()] = use
	}
	return out, ds
}

// providerBlockAddr returns the address of the provider block of provider
// node n (whose module has no instance keys in the address).
func providerBlockAddr(cfg *config.Module, n node) addrs.AbsProviderConfig {
	m := cfg.Descendant(n.module)
	for _, pb := range m.ProviderConfigs {
		if providerNodeOf(m, pb) == n {
			return addrs.AbsProviderConfig{Module: addrs.ModuleInstance(m.Path), Provider: m.ProviderFor(pb.Name), Alias: pb.Alias}
		}
	}
	return addrs.AbsProviderConfig{}
}

func hasEphemeralResources(cfg *config.Module) bool {
	for _, m := range cfg.AllModules() {
		if len(m.EphemeralResources) > 0 {
			return true
		}
	}
	return false
}

// ephemeralUserNodes returns, for each ephemeral resource node of rg, the
// nodes that use its value: those that refer to it and, through every
// node that passes a value on (locals, variables, outputs, module calls,
// check blocks, provider blocks, other ephemeral resources), those that
// refer to them. A managed or data resource uses what it refers to but
// passes nothing ephemeral on: what refers to it does not use it. A
// provider block passes it on to every resource it serves.
func ephemeralUserNodes(rg *refGraph) map[node][]node {
	out := map[node][]node{}
	for _, e := range rg.g.Nodes() {
		if e.kind != resourceNode || e.resource.Mode != addrs.Ephemeral {
			continue
		}
		seen := map[node]bool{e: true}
		queue := []node{e}
		var users []node
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, u := range rg.g.Successors(n) {
				if seen[u] {
					continue
				}
				seen[u] = true
				users = append(users, u)
				if u.kind != resourceNode || u.resource.Mode == addrs.Ephemeral {
					queue = append(queue, u)
				}
			}
		}
		out[e] = users
	}
	return out
}

// ephemeralCloser releases each ephemeral resource a plan opened once the
// last node of the reference graph that uses it has been visited (the
// resource's own node among them, so that one nothing uses is closed once
// opened). A resource a provider block is configured from stays open to
// the end of the plan, since the plan also uses that provider for the
// objects the configuration no longer has.
type ephemeralCloser struct {
	ctx context.Context
	set *ephemeral.Set

	mu sync.Mutex
	// pending counts, per ephemeral resource node, its users not yet done.
	pending map[node]int
	// uses lists, per node, the ephemeral resource nodes it counts for.
	uses map[node][]node
}

func newEphemeralCloser(ctx context.Context, set *ephemeral.Set, rg *refGraph) *ephemeralCloser {
	c := &ephemeralCloser{ctx: ctx, set: set, pending: map[node]int{}, uses: map[node][]node{}}
	for e, users := range ephemeralUserNodes(rg) {
		if slices.ContainsFunc(users, func(u node) bool { return u.kind == providerNode }) {
			continue
		}
		c.pending[e] = len(users) + 1
		c.uses[e] = append(c.uses[e], e)
		for _, u := range users {
			c.uses[u] = append(c.uses[u], e)
		}
	}
	return c
}

// done records that node n has been visited, and releases the ephemeral
// resources it was the last user of.
func (c *ephemeralCloser) done(n node) {
	if c == nil {
		return
	}
	var release []addrs.ConfigResource
	c.mu.Lock()
	for _, e := range c.uses[n] {
		c.pending[e]--
		if c.pending[e] == 0 {
			release = append(release, e.configResource())
		}
	}
	c.mu.Unlock()
	if len(release) > 0 {
		c.set.Release(c.ctx, release...)
	}
}
