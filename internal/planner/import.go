package planner

import (
	"context"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// ImportTarget is one remote object to bring under management: the
// resource instance it becomes and the ID its provider knows it by.
type ImportTarget struct {
	Addr addrs.AbsResourceInstance
	ID   string
	// Identity, when not cty.NilVal, names the object by its resource
	// identity instead of ID (ID is then only shown).
	Identity cty.Value
	// Deposed records the object as a deposed object of Addr, beside any
	// current one: an extra object, which the next apply destroys.
	Deposed bool
	// BesideDeposed lets the object become Addr's current object where
	// the state records only deposed objects (a create_before_destroy
	// replacement cut off after deposing the old one): rig recover's case.
	// Otherwise any recorded object refuses the import, as in OpenTofu.
	BesideDeposed bool
}

// ImportOptions configures an import.
type ImportOptions struct {
	// Variables are the root variable values given by the user.
	Variables map[string]InputValue
	// Env holds terraform.workspace, path.cwd and the bound on instances.
	lang.Env
	// Hooks observes the import; nil means nobody does.
	Hooks plan.ImportHooks
	// Dependencies says which dependencies imported objects record.
	Dependencies plan.DependencyMode
}

// Import brings the remote objects targets name under management, as
// `tofu import` does: each target must be a managed resource declared in
// cfg and have no object in prior. Its provider configuration (evaluated
// with opts.Variables) imports the ID; every object returned is read back
// through ReadResource (a null result means there is no such object) and
// recorded as apply records objects, with the resource's provider
// configuration, schema version, sensitive attributes, the dependencies and
// create_before_destroy its configuration implies. Import returns a copy of
// prior with the new objects; prior is not changed. providers is closed by
// the caller. Nothing is returned when errors are reported.
func Import(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, targets []ImportTarget, opts ImportOptions) (*state.State, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	if opts.Hooks == nil {
		opts.Hooks = noImportHooks{}
	}
	p := &planner{
		ctx: ctx, cfg: cfg, providers: providers,
		opts:    Options{Variables: opts.Variables, Env: opts.Env, Dependencies: opts.Dependencies},
		prevRun: prior, refreshed: prior.DeepCopy(),
		planned: map[addrs.AbsResource]cty.Value{},
		schemas: map[addrs.ConfigResource]provider.Schema{},
		// Import evaluates no resource, so the time matters only to
		// plantimestamp() in a provider configuration.
		timestamp: time.Now().UTC(),
	}
	ds := p.prepareImport()
	if ds.HasErrors() {
		return nil, ds
	}
	for _, t := range targets {
		ds = ds.Append(p.importTarget(t, opts.Hooks))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return p.refreshed, ds
}

// prepareImport checks the configuration and readies what importing needs:
// the evaluator (for provider configurations), the schemas of every
// resource and the reference graph (for dependencies and
// create_before_destroy).
func (p *planner) prepareImport() diag.Diagnostics {
	var ds diag.Diagnostics
	ds = ds.Append(unsupportedConstructs(p.cfg))
	ds = ds.Append(lang.CheckReferences(p.cfg))
	if ds.HasErrors() {
		return ds
	}
	vars, more := prepareVariables(p.cfg, p.opts.Variables)
	ds = ds.Append(more)
	p.variables = vars
	// Resources have no values during an import: a provider configuration
	// that refers to one sees an unknown value.
	p.eval, more = eval.New(p.ctx, eval.Options{Config: p.cfg, Variables: vars, Resources: p, Env: p.opts.Env,
		Timestamp: p.timestamp, Providers: p.providers})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	if ds = ds.Append(p.validateVariables()); ds.HasErrors() {
		return ds
	}
	return ds.Append(p.loadGraph())
}

// importTarget imports one target into p.refreshed.
func (p *planner) importTarget(t ImportTarget, hooks plan.ImportHooks) diag.Diagnostics {
	var ds diag.Diagnostics
	var r *config.Resource
	m := p.cfg.Descendant(t.Addr.Module.Module())
	if t.Addr.Resource.Resource.Mode == addrs.Managed && m != nil && p.eval.ModuleInstanceExists(t.Addr.Module) {
		r = m.ResourceByAddr(t.Addr.Resource.Resource)
	}
	if r == nil {
		ra := t.Addr.Resource.Resource
		return ds.Append(diag.Errorf("Configuration for import target does not exist",
			"The configuration for the given import target %s does not exist. All target instances must have an associated configuration to be imported. Before importing this resource, please create its configuration in the root module. For example:\n\n  resource %q %q {\n    # (resource arguments)\n  }", t.Addr, ra.Type, ra.Name))
	}
	if d, managed := p.alreadyManaged(t, t.Addr); managed {
		return ds.Append(d)
	}
	pc, prov, more := p.resourceProvider(m, r, t.Addr)
	if ds = ds.Append(more); ds.HasErrors() || prov == nil {
		return ds
	}

	hooks.PreImport(t.Addr, t.ID)
	req := provider.ImportRequest{TypeName: r.Addr.Type, ID: t.ID, Identity: t.Identity}
	if t.Identity != cty.NilVal {
		req.ID = ""
	}
	resp := prov.ImportResourceState(p.ctx, req)
	if ds = ds.Append(diag.WithAddress(resp.Diagnostics, addrs.ObjectAddr{Instance: t.Addr})); ds.HasErrors() {
		return ds
	}
	if len(resp.Imported) == 0 {
		return ds.Append(diag.Errorf("Import returned no resources",
			"While attempting to import with ID %s, the provider returned no instance states.", t.ID))
	}
	hooks.PostImport(t.Addr, resp.Imported)

	// A legacy provider may return several objects, of several types: each
	// goes to the target's name in its own type, suffixed -1, -2, … when
	// the same address comes up again (OpenTofu's rule).
	seen := map[addrs.AbsResourceInstance]int{}
	for _, imp := range resp.Imported {
		addr := t.Addr
		if imp.TypeName != "" {
			addr.Resource.Resource.Type = imp.TypeName
		}
		if n, dup := seen[addr]; dup {
			seen[addr] = n + 1
			addr.Resource.Resource.Name += fmt.Sprintf("-%d", n+1)
		} else {
			seen[addr] = 0
		}
		if d, managed := p.alreadyManaged(t, addr); managed {
			ds = ds.Append(d)
			continue
		}
		ds = ds.Append(p.recordImported(addr, t.Deposed, imp, prov, pc, hooks))
	}
	return ds
}

// resourceProvider is the configured provider of instance addr of the
// resource r of module m.
func (p *planner) resourceProvider(m *config.Module, r *config.Resource, addr addrs.AbsResourceInstance) (addrs.AbsProviderConfig, provider.Interface, diag.Diagnostics) {
	ref := ResolveProvider(m, r)
	var inst lang.InstanceData
	if ref.KeyExpr != nil {
		exp, ds := eval.Expand(p.eval.Scope(addr.Module, lang.InstanceData{}), r)
		if ds.HasErrors() {
			return addrs.AbsProviderConfig{}, nil, ds
		}
		inst = exp.InstanceData(addr.Resource.Key)
	}
	return p.instanceProvider(ref, addr, inst)
}

// alreadyManaged reports the error of importing t's object to addr when
// the state records an object there: any object, or with t.BesideDeposed
// a current one. A deposed import goes beside whatever is recorded.
func (p *planner) alreadyManaged(t ImportTarget, addr addrs.AbsResourceInstance) (diag.Diagnostic, bool) {
	inst := p.refreshed.Instance(addr)
	if t.Deposed || inst == nil || (t.BesideDeposed && inst.Current == nil) {
		return diag.Diagnostic{}, false
	}
	return diag.Errorf("Resource already managed by rig",
		"rig is already managing a remote object for %s. To import to this address you must first remove the existing object from the state.", addr), true
}

// recordImported reads an imported object back and records it at addr,
// as its current object or a new deposed one.
func (p *planner) recordImported(addr addrs.AbsResourceInstance, deposed bool, imp provider.ImportedObject, prov provider.Interface, pc addrs.AbsProviderConfig, hooks plan.ImportHooks) diag.Diagnostics {
	oaddr := addrs.ObjectAddr{Instance: addr}
	if deposed {
		oaddr.Deposed = state.NewDeposedKey(p.refreshed.Instance(addr))
	}
	sch, ds := p.providers.ResourceTypeSchema(p.ctx, pc.Provider, addr.Resource.Resource.Type)
	if ds.HasErrors() {
		return diag.WithAddress(ds, oaddr)
	}
	got, more := instance.ReadImported(p.ctx, instance.ImportReadRequest{
		Addr: addr, Object: imp, Provider: prov, ProviderConfig: pc,
		Eval: p.eval, Providers: p.providers, Hooks: importReadHooks{hooks},
	})
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	obj, err := instance.ImportedObject(pc, addr, sch, got)
	if err != nil {
		return ds.Append(diag.FromError(err))
	}
	// The object's configuration (for the target's own type) decides its
	// dependencies, create_before_destroy and skip_destroy, as a plan would
	// record them.
	if cr := addr.ContainingResource().InConfig(); p.cfg.ConfigResource(cr) != nil {
		obj.Dependencies = p.rg.dependencies()[cr]
		_, obj.CreateBeforeDestroy = p.cbd[cr]
		obj.SkipDestroy = p.cfg.ConfigResource(cr).Managed.SkipsDestroy()
	}
	p.refreshed.SetObject(oaddr, obj, pc)
	return ds
}

// importReadHooks reports the read of an imported object to the import's
// hooks, which observe its start.
type importReadHooks struct{ hooks plan.ImportHooks }

func (h importReadHooks) PreRefresh(addr addrs.ObjectAddr, prior cty.Value) {
	h.hooks.PreRefresh(addr.Instance, prior)
}
func (importReadHooks) PostRefresh(addrs.ObjectAddr, cty.Value) {}

type noImportHooks struct{}

func (noImportHooks) PreImport(addrs.AbsResourceInstance, string)                     {}
func (noImportHooks) PostImport(addrs.AbsResourceInstance, []provider.ImportedObject) {}
func (noImportHooks) PreRefresh(addrs.AbsResourceInstance, cty.Value)                 {}
