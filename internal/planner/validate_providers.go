package planner

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// Validation by the providers: as OpenTofu's validate walk does, each
// configuration is handed to its provider's validation call (unknown
// values and all) on an instance that is started but never configured,
// so that a provider's own checks (value ranges, conflicting arguments)
// fail `rig validate`, not only a plan.

// providerCheck is what a resource's body is checked with once it
// decoded against its schema: val is the decoded value, marks and all.
type providerCheck func(m *config.Module, r *config.Resource, val cty.Value) diag.Diagnostics

// validateWithProvider hands the decoded configuration val of resource r
// of module m to its provider's ValidateResourceConfig,
// ValidateDataResourceConfig or ValidateEphemeralResourceConfig. The
// provider sees val without marks; its diagnostics are placed in r's
// body, name r, never quote a sensitive value of val, and come in the
// order of their places (diag.SortBySource), however the provider
// ordered them.
func (p *planner) validateWithProvider(m *config.Module, r *config.Resource, val cty.Value) diag.Diagnostics {
	pc := p.providerConfigAddr(m, r)
	prov, ds := p.providers.Validator(p.ctx, pc.Provider)
	if ds.HasErrors() {
		// Reported with the resource's schema.
		return nil
	}
	plain := val
	if marks.Any(val) {
		plain, _ = val.UnmarkDeep()
	}
	var got diag.Diagnostics
	switch r.Addr.Mode {
	case addrs.Managed:
		got = prov.ValidateResourceConfig(p.ctx, r.Addr.Type, plain)
	case addrs.Data:
		got = prov.ValidateDataResourceConfig(p.ctx, r.Addr.Type, plain)
	case addrs.Ephemeral:
		ep, ok := provider.AsEphemeral(prov)
		if !ok {
			return nil
		}
		got = ep.ValidateEphemeralResourceConfig(p.ctx, r.Addr.Type, plain)
	}
	return diag.SortBySource(diag.WithAddress(provider.Redacted(got, val).InBody(r.Config), configAddr(m, r)))
}

// validateProviderConfigs hands every provider block of the tree that
// sets anything (a block with only an alias is left alone, as OpenTofu
// does) to its provider's ValidateProviderConfig, evaluated as the
// resources are, every reference unknown. A block with for_each is
// checked once per instance, with its each.key and each.value, when its
// for_each is known statically (see providerInstances), else once with
// them unknown. Nothing is configured.
func (p *planner) validateProviderConfigs(ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range p.cfg.AllModules() {
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
			pb := m.ProviderConfigs[key]
			if pb.Config == nil {
				continue
			}
			if _, empty := pb.Config.Content(&hcl.BodySchema{}); !empty.HasErrors() {
				continue
			}
			fqn := m.ProviderFor(pb.Name)
			schemas, more := p.providers.Schemas(p.ctx, fqn)
			if more.HasErrors() || schemas.Provider.Block == nil {
				// A missing provider is reported where it is required.
				continue
			}
			prov, more := p.providers.Validator(p.ctx, fqn)
			if more.HasErrors() {
				continue
			}
			addr := addrs.AbsProviderConfig{Module: addrs.ModuleInstance(m.Path), Provider: fqn, Alias: pb.Alias}
			// The answers for all the instances of the block are in the
			// order of their places, instance by instance at each.
			var answers diag.Diagnostics
			for _, inst := range providerInstances(ev, m, pb, addr) {
				s := *scope
				s.Instance = inst.data
				val, more := s.EvalBlock(pb.Config, schemas.Provider.Block.DecoderSpec())
				if ds = ds.Append(more); more.HasErrors() {
					break
				}
				plain, _ := val.UnmarkDeep()
				got := prov.ValidateProviderConfig(p.ctx, plain)
				answers = answers.Append(diag.WithAddress(provider.Redacted(got, val).InBody(pb.Config), inst.addr))
			}
			ds = ds.Append(diag.SortBySource(answers))
		}
	}
	return ds
}

// providerInstance is one instance of a provider block to validate: its
// address and its each.key and each.value.
type providerInstance struct {
	addr addrs.AbsProviderConfig
	data lang.InstanceData
}

// providerInstances returns the instances of provider block pb of module
// m (addressed addr) that validation checks: the block itself without
// for_each; with for_each, as OpenTofu does, each instance its for_each
// gives when that is known statically in the root module (variables at
// their defaults), else one with each.key and each.value unknown. The
// for_each's own problems are reported by eval.CheckProviderForEach.
func providerInstances(ev *eval.Evaluator, m *config.Module, pb *config.Provider, addr addrs.AbsProviderConfig) []providerInstance {
	if pb.ForEach == nil {
		return []providerInstance{{addr: addr}}
	}
	unknown := []providerInstance{{addr: addr, data: lang.InstanceData{EachKey: cty.UnknownVal(cty.String), EachValue: cty.DynamicVal}}}
	if !m.Path.IsRoot() {
		return unknown
	}
	exp, ds := ev.ProviderExpansion(addrs.RootModule, pb)
	if ds.HasErrors() || exp.Mode != eval.ForEach || !wholeKnown(exp) {
		return unknown
	}
	var out []providerInstance
	for _, k := range exp.Keys {
		out = append(out, providerInstance{addr: addr.Instance(k), data: exp.InstanceData(k)})
	}
	return out
}

// wholeKnown reports whether every each.value of exp is known.
func wholeKnown(exp eval.Expansion) bool {
	for _, v := range exp.Each {
		if !v.IsWhollyKnown() {
			return false
		}
	}
	return true
}

// validateActionWithProvider hands the decoded configuration val of
// action a of module m to its provider's ValidateActionConfig, as
// Terraform's validate does; placed, addressed and redacted as a
// resource's are.
func validateActionWithProvider(ctx context.Context, providers *provider.Set, m *config.Module, a *config.Action, val cty.Value) diag.Diagnostics {
	prov, ds := providers.Validator(ctx, ActionProvider(m, a).Provider)
	if ds.HasErrors() {
		return nil
	}
	ap, ok := provider.AsActions(prov)
	if !ok {
		return nil
	}
	plain, _ := val.UnmarkDeep()
	got := ap.ValidateActionConfig(ctx, a.Addr.Type, plain)
	return diag.SortBySource(diag.WithAddress(provider.Redacted(got, val).InBody(a.Config), addrs.AbsActionInstance{Module: addrs.ModuleInstance(m.Path), Action: a.Addr, Key: addrs.NoKey}))
}
