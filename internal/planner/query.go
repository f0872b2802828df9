package planner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
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
	// Hooks, when set, hears of each list block instance once it and
	// those before it have been queried, from one goroutine at a time.
	Hooks plan.QueryHooks
}

// Query asks the providers what exists for each list block of the
// configuration's query files (rig query, Terraform 1.14): each instance
// of a block (count and for_each repeat it) has its config, include_resource
// and limit evaluated in the root module (its variables, locals, provider
// configurations, the results of the list blocks it refers to, which run
// first, and the resources' values as the state records them), its
// provider configured, and its ListResource results
// streamed. Blocks that do not depend on each other, and the instances of
// a block, run at once, at most Parallelism instances at a time; the
// results and the hooks' calls still come in the blocks' dependency order
// (file order where they are independent), instance by instance. Nothing
// is planned and prior is not changed.
func Query(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, opts QueryOptions) ([]plan.ListResult, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = 10
	}
	p := &planner{
		ctx: ctx, cfg: cfg, providers: providers, opts: opts.Options,
		prevRun: prior, refreshed: prior.DeepCopy(),
		planned:   map[addrs.AbsResource]cty.Value{},
		schemas:   map[addrs.ConfigResource]provider.Schema{},
		timestamp: time.Now().UTC(),
		// A list block may use what the state records of a resource.
		recorded: true,
	}
	ds := p.prepareImport()
	if ds.HasErrors() {
		return nil, ds
	}
	order, deps, more := listOrder(cfg)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	return p.runLists(order, deps, opts)
}

// listBlock runs every instance of list block l, side by side on
// run.pool, and records the block's value for the expressions that refer
// to it: an object with the found objects as data (each with
// display_name, identity and state) and the config sent, as Terraform
// gives it; a tuple of those with count, an object by key with for_each.
// Its results come in the order of its instances.
func (p *planner) listBlock(l *config.List, run listRun) ([]plan.ListResult, diag.Diagnostics) {
	addr := l.Addr().Absolute(addrs.RootModule)
	exp, ds := eval.ExpandRepetition(p.eval.Scope(addrs.RootModule, lang.InstanceData{}), l.Count, l.ForEach)
	if ds.HasErrors() {
		run.seq.expanded(run.block, 0)
		return nil, ds
	}
	run.seq.expanded(run.block, len(exp.Keys))
	results := make([]plan.ListResult, len(exp.Keys))
	diags := make([]diag.Diagnostics, len(exp.Keys))
	ran := make([]bool, len(exp.Keys))
	var wg sync.WaitGroup
	for i, key := range exp.Keys {
		wg.Add(1)
		run.pool.Go(nil, func() {
			defer wg.Done()
			ev := &listEvents{}
			// Once the query is interrupted, the instances not started
			// are not queried (runLists reports the interruption).
			if ran[i] = p.ctx.Err() == nil; ran[i] {
				results[i], diags[i] = p.list(l, addr.Instance(key), i, exp.InstanceData(key), run.opts, ev)
			}
			run.seq.done(run.block, i, ev)
		})
	}
	wg.Wait()
	var out []plan.ListResult
	vals := map[addrs.InstanceKey]cty.Value{}
	for i, key := range exp.Keys {
		if ds = ds.Append(diags[i]); diags[i].HasErrors() || !ran[i] {
			continue
		}
		vals[key] = listValue(results[i])
		out = append(out, results[i])
	}
	p.mu.Lock()
	p.planned[addr] = exp.WholeValue(vals)
	p.mu.Unlock()
	return out, ds
}

// listValue is the value expressions see of what one list block instance
// found.
func listValue(res plan.ListResult) cty.Value {
	stateTy := res.Schema.Block.ImpliedType()
	data := make([]cty.Value, 0, len(res.Objects))
	for _, o := range res.Objects {
		st := o.Resource
		if st == cty.NilVal {
			st = cty.NullVal(stateTy)
		}
		// What the schema declares sensitive stays so in expressions.
		st = res.Schema.Block.MarkSensitive(st)
		data = append(data, cty.ObjectVal(map[string]cty.Value{
			"display_name": cty.StringVal(o.DisplayName), "identity": o.Identity, "state": st,
		}))
	}
	return cty.ObjectVal(map[string]cty.Value{"data": cty.TupleVal(data), "config": res.Config})
}

// list runs one instance of a list block; hooks hears of it.
func (p *planner) list(l *config.List, addr addrs.AbsResourceInstance, index int, inst lang.InstanceData, opts QueryOptions, hooks plan.QueryHooks) (plan.ListResult, diag.Diagnostics) {
	ref := ProviderRef{Config: ResolveProviderConfig(p.cfg, l.Provider.Name, l.Provider.Alias), KeyExpr: l.Provider.KeyExpr, KeyFromResource: l.Provider.KeyExpr != nil}
	res := plan.ListResult{List: l, Addr: addr, Index: index, ProviderConfig: ref.Config}
	lsch, rsch, ds := listSchemas(p.ctx, p.providers, l, ref.Config.Provider)
	if ds.HasErrors() {
		return res, ds
	}
	res.Schema = rsch
	scope := p.eval.Scope(addrs.RootModule, inst)
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
			"The config block of a list block must be known before the query: it may refer to variables, locals, other list blocks' results and the values the state records of resources, not to values only known after apply."))
	}
	include, more := evalIncludeResource(scope, l.IncludeResource, false)
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	include = include || opts.IncludeResource
	limit, more := evalLimit(scope, l.Limit, false)
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	pc, prov, more := p.instanceProvider(ref, addr, inst)
	if ds = ds.Append(more); more.HasErrors() || prov == nil {
		return res, ds
	}
	res.ProviderConfig = pc
	// The hooks see the config with its sensitive values marked (the
	// configuration's and those the list schema declares); the provider
	// gets it without marks.
	shown := lsch.Block.MarkSensitive(input)
	input, _ = input.UnmarkDeep()
	res.Config = input
	hooks.PreList(res, shown)
	// The provider checks the config first, as Terraform has it do.
	more = diag.WithAddress(prov.ValidateListResourceConfig(p.ctx, l.Type, input).InBody(l.Config), addr)
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	more = prov.ListResource(p.ctx, provider.ListRequest{TypeName: l.Type, Config: input, IncludeResource: include, Limit: limit}, func(o provider.ListedObject) {
		if int64(len(res.Objects)) < limit {
			res.Objects = append(res.Objects, o)
		}
	})
	more = diag.WithAddress(more, addr)
	if ds = ds.Append(more); more.HasErrors() {
		return res, ds
	}
	for _, o := range res.Objects {
		if !o.Identity.IsWhollyKnown() {
			return res, ds.Append(diag.Errorf("Provider produced invalid identity",
				"Provider %q returned an identity with unknown values for an object %s listed.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", res.ProviderConfig.Provider.ForDisplay(), addr))
		}
	}
	hooks.PostList(res)
	return res, ds
}

// GenerateListed returns the configuration of each object r found (which
// must include its attributes), named NAME_0, NAME_1, … after the list
// block (NAME_I_0, NAME_I_1, … for the instance at position I of a block
// with count or for_each), with the list block's provider configuration,
// as Terraform generates it.
func GenerateListed(r plan.ListResult) []plan.GeneratedQueryResource {
	out := make([]plan.GeneratedQueryResource, 0, len(r.Objects))
	for i, o := range r.Objects {
		name := fmt.Sprintf("%s_%d", r.List.Name, i)
		if r.Addr.Resource.Key != addrs.NoKey {
			name = fmt.Sprintf("%s_%d_%d", r.List.Name, r.Index, i)
		}
		ra := addrs.Resource{Mode: addrs.Managed, Type: r.List.Type, Name: name}
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
