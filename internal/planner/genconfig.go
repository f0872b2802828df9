package planner

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// GeneratedResource is the configuration generated for an import block
// whose target has no resource block.
type GeneratedResource struct {
	Addr addrs.AbsResourceInstance
	// ID is the import ID the object was imported with.
	ID string
	// Config is the formatted resource block, ending in a newline.
	Config []byte
	// Object and Private are the object as imported and read, which a
	// plan given this resource in Options.Generated uses instead of
	// importing it again.
	Object  cty.Value
	Private []byte
	// ImportIdentity is the identity the import block named the object
	// by (cty.NilVal when ID did); Identity the object's identity as the
	// provider returned it (cty.NilVal when none).
	ImportIdentity, Identity cty.Value
}

// GenerateConfig imports and reads the object of every import block of
// cfg's root module whose target has no resource block, as `tofu plan
// -generate-config-out` does, and returns a resource block for each, in
// address order: the target's Required and Optional attributes with their
// imported values and its nested blocks (see ResourceConfig). A target in
// a module, or with an instance key, is an error. Nothing is returned
// when every target has a resource block; prior is not changed.
// providers is shared with the plan that follows; the caller closes it.
func GenerateConfig(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, opts Options) ([]GeneratedResource, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	if len(cfg.Imports) == 0 {
		return nil, nil
	}
	p := &planner{
		ctx: ctx, cfg: cfg, providers: providers, opts: opts,
		prevRun: prior, refreshed: prior.DeepCopy(),
		planned:    map[addrs.AbsResource]cty.Value{},
		schemas:    map[addrs.ConfigResource]provider.Schema{},
		generating: map[addrs.AbsResourceInstance]importTarget{},
		timestamp:  time.Now().UTC(),
	}
	ds := p.prepareImport()
	if ds.HasErrors() {
		return nil, ds
	}
	if ds = ds.Append(p.expandImports()); ds.HasErrors() {
		return nil, ds
	}
	var out []GeneratedResource
	for _, addr := range slices.SortedFunc(maps.Keys(p.generating), func(a, b addrs.AbsResourceInstance) int {
		return addrs.ObjectAddr{Instance: a}.Compare(addrs.ObjectAddr{Instance: b})
	}) {
		g, more := p.generateResource(addr, p.generating[addr])
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		out = append(out, g)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return out, ds
}

// addGenerateTarget records an import target without a resource block
// for configuration generation, which only root module resources without
// an instance key allow.
func (p *planner) addGenerateTarget(addr addrs.AbsResourceInstance, t importTarget) diag.Diagnostics {
	if !addr.Module.IsRoot() {
		return diag.Diagnostics{diag.At(t.decl.DeclRange, "Cannot generate configuration for resource inside sub-module",
			fmt.Sprintf("The configuration for the given import %s does not exist. Configuration generation is only possible for resources in the root module, and not possible for resources in sub-modules.", addr))}
	}
	if addr.Resource.Key != addrs.NoKey {
		return diag.Diagnostics{diag.At(t.decl.DeclRange, "Configuration generation for count and for_each resources not supported",
			fmt.Sprintf("The configuration for the given import %s does not exist. Configuration generation is only possible for resources that do not use count or for_each", addr))}
	}
	if prev, dup := p.generating[addr]; dup {
		return diag.Diagnostics{diag.At(t.decl.DeclRange, "Duplicate import configuration",
			fmt.Sprintf("An import block for the resource %s was already declared at %s. A resource can have only one import block.", addr, prev.decl.DeclRange))}
	}
	p.generating[addr] = t
	return nil
}

// generateResource imports and reads the object for addr with the
// provider configuration its import block names (or the default one of
// its type) and renders its resource block.
func (p *planner) generateResource(addr addrs.AbsResourceInstance, t importTarget) (GeneratedResource, diag.Diagnostics) {
	ra := addr.Resource.Resource
	name, alias := ra.ImpliedProviderType(), ""
	if t.decl.Provider != nil {
		name, alias = t.decl.Provider.Name, t.decl.Provider.Alias
	}
	pc := ResolveProviderConfig(p.cfg, name, alias)
	var ref *config.ProviderConfigRef
	if name != ra.ImpliedProviderType() || alias != "" {
		ref = t.decl.Provider
	}
	if ref != nil && ref.KeyExpr != nil {
		// An instance of a provider configuration with for_each: the key
		// is evaluated with the import block's each, and written as a
		// literal into the generated block.
		pref := ProviderRef{Config: pc, KeyExpr: ref.KeyExpr, KeyFromResource: true}
		ipc, ds := ProviderInstanceOf(p.eval, pref, addr, t.inst)
		if ds.HasErrors() {
			return GeneratedResource{}, ds
		}
		pc = ipc
		lit := *ref
		lit.KeyExpr = hcl.StaticExpr(cty.StringVal(pc.Key.Str()), ref.KeyExpr.Range())
		ref = &lit
	}
	prov, ds := p.configuredProvider(pc)
	if ds.HasErrors() {
		return GeneratedResource{}, ds
	}
	sch, more := p.providers.ResourceTypeSchema(p.ctx, pc.Provider, ra.Type)
	if ds = ds.Append(more.WithAddress(addrs.ObjectAddr{Instance: addr})); ds.HasErrors() {
		return GeneratedResource{}, ds
	}
	v, priv, id, more := p.importObject(prov, sch, pc, addr, t)
	if ds = ds.Append(more); ds.HasErrors() {
		return GeneratedResource{}, ds
	}
	return GeneratedResource{Addr: addr, ID: t.id, Config: ResourceConfig(ra, ref, sch.Block, v), Object: v, Private: priv, ImportIdentity: t.identity, Identity: id}, ds
}
