package planner

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// DefaultListLimit is how many objects a list block returns when it sets
// no limit, as in Terraform.
const DefaultListLimit = 100

// QueryOptions are the settings of a query.
type QueryOptions struct {
	Options
	// IncludeResource asks every list block for its objects' attributes,
	// whatever it says (configuration generation needs them).
	IncludeResource bool
	// Hooks, when set, hears of each list block as it is queried.
	Hooks plan.QueryHooks
}

// Query asks the providers what exists for each list block of a query
// file (rig query, Terraform 1.14): it evaluates each block's config,
// include_resource and limit in the root module (its variables, locals
// and provider configurations), configures the provider the block names
// and streams its ListResource results. Nothing is planned and prior is
// not changed.
func Query(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, lists []*config.List, opts QueryOptions) ([]plan.ListResult, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	p := &planner{
		ctx: ctx, cfg: cfg, providers: providers, opts: opts.Options,
		prevRun: prior, refreshed: prior.DeepCopy(),
		planned:   map[addrs.AbsResource]cty.Value{},
		schemas:   map[addrs.ConfigResource]provider.Schema{},
		timestamp: time.Now().UTC(),
	}
	ds := p.prepareImport()
	if ds.HasErrors() {
		return nil, ds
	}
	var out []plan.ListResult
	for _, l := range lists {
		res, more := p.list(l, opts)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		out = append(out, res)
	}
	return out, ds
}

// list runs one list block.
func (p *planner) list(l *config.List, opts QueryOptions) (plan.ListResult, diag.Diagnostics) {
	res := plan.ListResult{List: l, ProviderConfig: ResolveProviderConfig(p.cfg, l.Provider.Name, l.Provider.Alias)}
	schemas, ds := p.providers.Schemas(p.ctx, res.ProviderConfig.Provider)
	if ds.HasErrors() {
		return res, ds
	}
	lsch, ok := schemas.ListResources[l.Type]
	if !ok {
		return res, ds.Append(diag.At(l.DeclRange, "Invalid list resource type",
			fmt.Sprintf("The provider %s does not support list resource type %q.", res.ProviderConfig.Provider.ForDisplay(), l.Type)))
	}
	res.Schema, ok = schemas.ResourceTypes[l.Type]
	if !ok || res.Schema.Identity == nil {
		return res, ds.Append(diag.At(l.DeclRange, "Invalid list resource type",
			fmt.Sprintf("The provider %s lists %q objects but declares no managed resource type of that name with a resource identity.", res.ProviderConfig.Provider.ForDisplay(), l.Type)))
	}
	scope := p.eval.Scope(addrs.RootModule, lang.InstanceData{})
	body := l.Config
	if body == nil {
		body = hcl.EmptyBody()
	}
	input, more := scope.EvalBlock(body, lsch.Block.DecoderSpec())
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	if !input.IsWhollyKnown() {
		return res, ds.Append(diag.At(l.DeclRange, "Invalid list configuration",
			"The config block of a list block must be known before the query: it may refer only to variables, locals and other values known before apply."))
	}
	include := opts.IncludeResource
	if l.IncludeResource != nil {
		v, more := scope.EvalExpr(l.IncludeResource, cty.Bool)
		if ds = ds.Append(more); more.HasErrors() {
			return res, ds
		}
		if !v.IsKnown() || v.IsNull() {
			return res, ds.Append(diag.At(l.IncludeResource.Range(), "Invalid include_resource argument", "include_resource must be a known boolean."))
		}
		v, _ = v.Unmark()
		include = include || v.True()
	}
	limit := int64(DefaultListLimit)
	if l.Limit != nil {
		v, more := scope.EvalExpr(l.Limit, cty.Number)
		if ds = ds.Append(more); more.HasErrors() {
			return res, ds
		}
		v, _ = v.Unmark()
		n, acc := big.NewInt(0), big.Accuracy(0)
		if v.IsKnown() && !v.IsNull() {
			n, acc = v.AsBigFloat().Int(nil)
		}
		if !v.IsKnown() || v.IsNull() || acc != big.Exact || n.Sign() < 0 || !n.IsInt64() {
			return res, ds.Append(diag.At(l.Limit.Range(), "Invalid limit argument", "limit must be a known whole number, zero or more."))
		}
		limit = n.Int64()
	}
	prov, more := p.configuredProvider(res.ProviderConfig)
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	input, _ = input.UnmarkDeep()
	if opts.Hooks != nil {
		opts.Hooks.PreList(res, input)
	}
	more = prov.ListResource(p.ctx, provider.ListRequest{TypeName: l.Type, Config: input, IncludeResource: include, Limit: limit}, func(o provider.ListedObject) {
		if int64(len(res.Objects)) < limit {
			res.Objects = append(res.Objects, o)
		}
	})
	for i := range more {
		if more[i].Address == nil {
			more[i].Address = listAddress(l.Address())
		}
	}
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	for _, o := range res.Objects {
		if !o.Identity.IsWhollyKnown() {
			return res, ds.Append(diag.Errorf("Provider produced invalid identity",
				"Provider %q returned an identity with unknown values for an object %s listed.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", res.ProviderConfig.Provider.ForDisplay(), l.Address()))
		}
	}
	if opts.Hooks != nil {
		opts.Hooks.PostList(res)
	}
	return res, ds
}

// GenerateListed returns the configuration of each object r found (which
// must include its attributes), named NAME_0, NAME_1, … after the list
// block, with the list block's provider configuration, as Terraform
// generates it.
func GenerateListed(r plan.ListResult) []plan.GeneratedQueryResource {
	out := make([]plan.GeneratedQueryResource, 0, len(r.Objects))
	for i, o := range r.Objects {
		ra := addrs.Resource{Mode: addrs.Managed, Type: r.List.Type, Name: fmt.Sprintf("%s_%d", r.List.Name, i)}
		v := o.Resource
		if v == cty.NilVal {
			v = cty.NullVal(r.Schema.Block.ImpliedType())
		}
		out = append(out, plan.GeneratedQueryResource{
			Addr:   ra.Instance(addrs.NoKey).Absolute(addrs.RootModule),
			Config: ResourceConfig(ra, r.List.Provider, r.Schema.Block, v),
			Import: importBlock(ra, r.List.Provider, o.Identity),
		})
	}
	return out
}
