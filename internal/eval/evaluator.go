package eval

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/provider"
)

// ResourceValues supplies the value of a whole resource (an object, a tuple
// for count, an object for for_each) in one module instance to expressions
// that reference it.
type ResourceValues interface {
	ResourceValue(addr addrs.AbsResource) cty.Value
}

// Evaluator evaluates the expressions of a configuration tree for one plan
// or apply. Local values, child modules' input variables, module outputs
// and module call expansions are each computed once, on first use, per
// module instance; callers must only evaluate an expression once
// everything it references is final (the graph walks guarantee that). It is
// safe for concurrent use.
type Evaluator struct {
	// Config is the root module of the tree.
	Config *config.Module
	// Variables are the root module's input variable values.
	Variables map[string]cty.Value
	Resources ResourceValues
	// Env holds terraform.workspace, path.cwd and the bound on instances.
	lang.Env
	Timestamp time.Time
	// Applying is terraform.applying.
	Applying bool
	// Functions are the provider-defined functions expressions may call,
	// in modules New found no table for (New builds one per module); nil
	// means none.
	Functions *lang.ProviderFunctions

	// functions holds each module's provider-defined functions (those of
	// its own required_providers), built by New.
	functions map[*config.Module]*lang.ProviderFunctions

	mu      sync.Mutex
	modules map[addrs.ModuleInstance]*moduleEntry
	calls   parallel.Memo[callKey, lazyExpansion]
	args    parallel.Memo[*config.ModuleCall, hcl.Attributes]
	provs   parallel.Memo[*config.Provider, lazyExpansion]
	metas   parallel.Memo[metaKey, lazyValue]
	// deprecations holds, per resource, its schema when that declares
	// deprecated attributes or blocks (nil when not), see deprecatedSchema.
	deprecations deprecatedSchemas

	// ctx and providers, set by New when given providers, are what
	// deprecatedSchema asks for resource schemas.
	ctx       context.Context
	providers *provider.Set
}

type metaKey struct {
	module   addrs.Module
	provider addrs.Provider
}

type callKey struct {
	parent addrs.ModuleInstance
	name   string
}

type lazyValue struct {
	val   cty.Value
	diags diag.Diagnostics
	// loop is set when computing the value ran into a loop (see
	// evalFrame): every reference to the value then reports its
	// diagnostics.
	loop bool
}

type lazyExpansion struct {
	exp   Expansion
	diags diag.Diagnostics
	loop  bool
}

// moduleEntry holds one module instance's lazily computed values.
type moduleEntry struct {
	addr addrs.ModuleInstance
	cfg  *config.Module
	vals parallel.Memo[lazyKey, lazyValue]
}

// lazyKey names a value of a module instance: a variable, local or output.
type lazyKey struct {
	kind lazyKind
	name string
}

type lazyKind uint8

const (
	variableValue lazyKind = iota
	localValue
	outputValue
	// callExpansion is a module call's count or for_each (an evalFrame
	// kind only: expansions are kept in Evaluator.calls).
	callExpansion
)

// Options are what New builds an Evaluator from.
type Options struct {
	// Config is the root module of the tree.
	Config *config.Module
	// Variables are the root module's input variable values.
	Variables map[string]cty.Value
	Resources ResourceValues
	// Env holds terraform.workspace, path.cwd and the bound on instances.
	lang.Env
	Timestamp time.Time
	// Providers serves the provider-defined functions and configures
	// providers; nil means no provider functions.
	Providers *provider.Set
	// Applying is terraform.applying: set by an apply.
	Applying bool
}

// New returns an Evaluator for one plan, apply, import or validation: the
// one setup all of them share. It reads the provider-defined functions
// of every module of the tree from opts.Providers (reporting providers
// that cannot give them).
func New(ctx context.Context, opts Options) (*Evaluator, diag.Diagnostics) {
	e := &Evaluator{Config: opts.Config, Variables: opts.Variables, Resources: opts.Resources,
		Env: opts.Env, Timestamp: opts.Timestamp, Applying: opts.Applying}
	if opts.Providers == nil {
		return e, nil
	}
	e.ctx, e.providers = ctx, opts.Providers
	var ds diag.Diagnostics
	e.functions = map[*config.Module]*lang.ProviderFunctions{}
	for _, m := range opts.Config.AllModules() {
		fns, more := ProviderFunctions(ctx, opts.Providers, m)
		ds = ds.Append(more)
		e.functions[m] = fns
	}
	e.Functions = e.functions[opts.Config]
	return e, ds
}

// FunctionsOf returns the provider-defined functions module m may call.
func (e *Evaluator) FunctionsOf(m *config.Module) *lang.ProviderFunctions {
	if fns, ok := e.functions[m]; ok {
		return fns
	}
	return e.Functions
}

// module returns the entry of module instance mi, whose configuration must exist.
func (e *Evaluator) module(mi addrs.ModuleInstance) *moduleEntry {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.modules == nil {
		e.modules = map[addrs.ModuleInstance]*moduleEntry{}
	}
	me := e.modules[mi]
	if me == nil {
		me = &moduleEntry{addr: mi, cfg: e.Config.Descendant(mi.Module())}
		e.modules[mi] = me
	}
	return me
}

// Scope returns a scope for the expressions of module instance mi, of one
// resource instance in it when inst is set.
func (e *Evaluator) Scope(mi addrs.ModuleInstance, inst lang.InstanceData) *lang.Scope {
	return e.scope(mi, inst, nil)
}

// scope is Scope for an expression evaluated to compute the value of
// frame (nil: at the start of an evaluation path).
func (e *Evaluator) scope(mi addrs.ModuleInstance, inst lang.InstanceData, frame *evalFrame) *lang.Scope {
	me := e.module(mi)
	return &lang.Scope{
		Data:              moduleData{e: e, me: me, frame: frame},
		ModuleDir:         dirOf(me.cfg),
		RootDir:           dirOf(e.Config),
		Env:               e.Env,
		Applying:          e.Applying,
		Instance:          inst,
		PlanTimestamp:     e.Timestamp,
		ProviderFunctions: e.FunctionsOf(me.cfg),
		QuietDeprecations: me.cfg != nil && me.cfg.QuietDeprecations(),
	}
}

func dirOf(m *config.Module) string {
	if m == nil || m.SourceDir == "" {
		return "."
	}
	return m.SourceDir
}

// CallExpansion returns the instances of module call name in module
// instance parent, evaluating its count or for_each on first use.
func (e *Evaluator) CallExpansion(parent addrs.ModuleInstance, name string) (Expansion, diag.Diagnostics) {
	return e.callExpansion(parent, name, nil)
}

func (e *Evaluator) callExpansion(parent addrs.ModuleInstance, name string, frame *evalFrame) (Expansion, diag.Diagnostics) {
	l, _ := e.calls.Do(callKey{parent, name}, func(l *lazyExpansion) {
		m := e.Config.Descendant(parent.Module())
		call := m.ModuleCalls[name]
		f := frame.push(parent, lazyKey{callExpansion, name})
		l.exp, l.diags = ExpandCall(e.scope(parent, lang.InstanceData{}, f), call)
		l.loop = f.inLoop
	})
	return l.exp, l.diags
}

// ModuleInstances returns every instance of the module at static path p,
// expanding the calls on the way from the root. A call whose expansion
// failed contributes no instances.
func (e *Evaluator) ModuleInstances(p addrs.Module) []addrs.ModuleInstance {
	if p.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModule}
	}
	parentPath, name := p.Parent()
	var out []addrs.ModuleInstance
	for _, parent := range e.ModuleInstances(parentPath) {
		exp, _ := e.CallExpansion(parent, name)
		for _, k := range exp.Keys {
			out = append(out, parent.Child(name, k))
		}
	}
	return out
}

// ModuleInstanceExists reports whether mi is an instance of the
// configuration as expanded: every call on its path exists and has its key.
func (e *Evaluator) ModuleInstanceExists(mi addrs.ModuleInstance) bool {
	if mi.IsRoot() {
		return true
	}
	parent, step := mi.Parent()
	if !e.ModuleInstanceExists(parent) {
		return false
	}
	m := e.Config.Descendant(parent.Module())
	if m == nil || m.ModuleCalls[step.Name] == nil || m.Children[step.Name] == nil {
		return false
	}
	exp, ds := e.CallExpansion(parent, step.Name)
	return !ds.HasErrors() && exp.Has(step.Key)
}

func (e *Evaluator) callArgs(call *config.ModuleCall) hcl.Attributes {
	attrs, _ := e.args.Do(call, func(attrs *hcl.Attributes) {
		// Errors (a block among the arguments) are reported by the
		// reference check.
		*attrs, _ = call.Config.JustAttributes()
	})
	return *attrs
}

// ArgumentRange returns where the call of module instance mi sets
// variable name: the argument's expression, or the call when it sets none.
// ok is false for the root module.
func (e *Evaluator) ArgumentRange(mi addrs.ModuleInstance, name string) (rng hcl.Range, ok bool) {
	if mi.IsRoot() {
		return hcl.Range{}, false
	}
	me := e.module(mi)
	_, step := mi.Parent()
	call := me.cfg.Parent.ModuleCalls[step.Name]
	if attr, found := e.callArgs(call)[name]; found {
		return attr.Expr.Range(), true
	}
	return call.DeclRange, true
}

// InputVariable returns the final value of input variable name in module
// instance mi, with the diagnostics of computing it (a child module's
// variables are its call's arguments, evaluated in the calling module).
func (e *Evaluator) InputVariable(mi addrs.ModuleInstance, name string) (cty.Value, diag.Diagnostics) {
	v, ds, _ := e.inputVariable(mi, name, nil)
	return v, ds
}

// inputVariable is InputVariable asked for on frame's path; loop reports
// that computing it found a loop through it.
func (e *Evaluator) inputVariable(mi addrs.ModuleInstance, name string, frame *evalFrame) (_ cty.Value, _ diag.Diagnostics, loop bool) {
	if mi.IsRoot() {
		v, ok := e.Variables[name]
		if !ok {
			return cty.DynamicVal, nil, false
		}
		return v, nil, false
	}
	me := e.module(mi)
	l, _ := me.vals.Do(lazyKey{variableValue, name}, func(l *lazyValue) {
		f := frame.push(mi, lazyKey{variableValue, name})
		l.val, l.diags = e.childVariable(me, name, f)
		l.loop = f.inLoop
	})
	return l.val, l.diags, l.loop
}

func (e *Evaluator) childVariable(me *moduleEntry, name string, frame *evalFrame) (cty.Value, diag.Diagnostics) {
	v := me.cfg.Variables[name]
	if v == nil {
		return cty.DynamicVal, nil
	}
	parent, step := me.addr.Parent()
	call := me.cfg.Parent.ModuleCalls[step.Name]
	exp, ds := e.callExpansion(parent, step.Name, frame)
	if ds.HasErrors() {
		return cty.UnknownVal(v.ConcreteType), nil
	}
	val := cty.NilVal
	rng := call.DeclRange
	if attr, ok := e.callArgs(call)[name]; ok {
		rng = attr.Expr.Range()
		var more diag.Diagnostics
		val, more = e.scope(parent, exp.InstanceData(step.Key), frame).EvalExpr(attr.Expr, cty.DynamicPseudoType)
		if more.HasErrors() {
			return cty.UnknownVal(v.ConcreteType), more
		}
		ds = more
	}
	out, more := PrepareVariable(v, val, rng, me.addr.String()+".var."+name)
	out, eds := EphemeralVariable(v, out, rng)
	more = more.Append(eds)
	if v.Sensitive {
		out = out.Mark(lang.Sensitive)
	}
	return out, ds.Append(more)
}

// PrepareVariable checks and converts a variable's given value (cty.NilVal
// when none is given) against its declaration: default, nullable, optional
// attribute defaults and type. addr names the variable in messages as a user
// writes it ("var.region", "module.net.var.cidr"); rng is where the value was
// given (the declaration when it came from outside the configuration). As in
// OpenTofu, a value of the wrong type is reported at the declaration, and a
// null for a non-nullable variable at rng.
func PrepareVariable(v *config.Variable, val cty.Value, rng hcl.Range, addr string) (cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	if val == cty.NilVal {
		if v.Required() {
			return cty.UnknownVal(v.ConcreteType), ds.Append(diag.At(rng, "Missing required argument",
				fmt.Sprintf("The argument %q is required, but no definition was found.", v.Name)))
		}
		val = v.Default
	}
	if val.IsNull() && !v.Nullable {
		if v.Default != cty.NilVal && !v.Default.IsNull() {
			val = v.Default
		} else if rng == v.DeclRange {
			ds = ds.Append(diag.At(rng, "Required variable not set", fmt.Sprintf("The variable %q is required, but the given value is null.", v.Name)))
		} else {
			ds = ds.Append(diag.At(rng, "Required variable not set",
				fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", addr, v.DeclRange.String())))
		}
	}
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	conv, err := convert.Convert(val, v.Type)
	if err != nil {
		return cty.UnknownVal(v.ConcreteType), ds.Append(diag.At(v.DeclRange, "Invalid value for input variable",
			unsuitableDetail(v, addr, rng, err)))
	}
	return conv, ds
}

// unsuitableDetail is the detail of "Invalid value for input variable" for a
// value of the wrong type given at rng: the declaration's place, or, for a
// sensitive or ephemeral variable, the place of the value that failed.
func unsuitableDetail(v *config.Variable, addr string, rng hcl.Range, err error) string {
	if rng != v.DeclRange {
		switch {
		case v.Ephemeral:
			return fmt.Sprintf("The given value is not suitable for %s, which is ephemeral: %s. Invalid value defined at %s.", addr, err, rng.String())
		case v.Sensitive:
			return fmt.Sprintf("The given value is not suitable for %s, which is sensitive: %s. Invalid value defined at %s.", addr, err, rng.String())
		}
	}
	return fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", addr, v.DeclRange.String(), err)
}

// LocalValue returns local value name of module instance mi, evaluating it
// on first use, with the diagnostics of evaluating it.
func (e *Evaluator) LocalValue(mi addrs.ModuleInstance, name string) (cty.Value, diag.Diagnostics) {
	v, ds, _ := e.localValue(mi, name, nil)
	return v, ds
}

func (e *Evaluator) localValue(mi addrs.ModuleInstance, name string, frame *evalFrame) (_ cty.Value, _ diag.Diagnostics, loop bool) {
	me := e.module(mi)
	l, _ := me.vals.Do(lazyKey{localValue, name}, func(l *lazyValue) {
		loc := me.cfg.Locals[name]
		if loc == nil {
			l.val = cty.DynamicVal
			return
		}
		f := frame.push(mi, lazyKey{localValue, name})
		l.val, l.diags = e.scope(mi, lang.InstanceData{}, f).EvalExpr(loc.Expr, cty.DynamicPseudoType)
		if l.diags.HasErrors() {
			l.val = cty.DynamicVal
		}
		l.loop = f.inLoop
	})
	return l.val, l.diags, l.loop
}

// OutputValue returns output name of module instance mi, evaluating it on
// first use, with the diagnostics of evaluating it (preconditions are the
// caller's).
func (e *Evaluator) OutputValue(mi addrs.ModuleInstance, name string) (cty.Value, diag.Diagnostics) {
	v, ds, _ := e.outputValue(mi, name, nil)
	return v, ds
}

func (e *Evaluator) outputValue(mi addrs.ModuleInstance, name string, frame *evalFrame) (_ cty.Value, _ diag.Diagnostics, loop bool) {
	me := e.module(mi)
	l, _ := me.vals.Do(lazyKey{outputValue, name}, func(l *lazyValue) {
		o := me.cfg.Outputs[name]
		if o == nil || o.Expr == nil {
			l.val = cty.DynamicVal
			return
		}
		f := frame.push(mi, lazyKey{outputValue, name})
		l.val, l.diags = EvalOutput(e.scope(mi, lang.InstanceData{}, f), o)
		if l.diags.HasErrors() {
			l.val = cty.DynamicVal
		}
		var eds diag.Diagnostics
		l.val, eds = EphemeralOutput(o, mi.IsRoot(), l.val)
		l.diags = l.diags.Append(eds)
		if o.Sensitive {
			l.val = l.val.Mark(lang.Sensitive)
		}
		l.loop = f.inLoop
	})
	return l.val, l.diags, l.loop
}

// ModuleCallValue returns the value of module call name in module instance
// parent: an object of the child's outputs per instance, whole as
// Expansion.WholeValue assembles it. outputs limits the objects to those
// outputs (nil: all of them): only outputs whose inputs are final may be
// evaluated, as each is computed once.
func (e *Evaluator) ModuleCallValue(parent addrs.ModuleInstance, name string, outputs []string) cty.Value {
	v, _ := e.moduleCallValue(parent, name, outputs, nil, hcl.Range{})
	return v
}

// moduleCallValue is ModuleCallValue asked for at rng on frame's path,
// with the diagnostics of a loop through the call found on the way.
func (e *Evaluator) moduleCallValue(parent addrs.ModuleInstance, name string, outputs []string, frame *evalFrame, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	m := e.Config.Descendant(parent.Module())
	child := m.Children[name]
	if child == nil {
		return cty.DynamicVal, nil
	}
	if d, ok := frame.loop(parent, lazyKey{callExpansion, name}, rng); ok {
		return cty.DynamicVal, diag.Diagnostics{d}
	}
	exp, ds := e.callExpansion(parent, name, frame)
	if ds.HasErrors() {
		if e.expansionLoop(parent, name) {
			return cty.DynamicVal, ds
		}
		return cty.DynamicVal, nil
	}
	var loops diag.Diagnostics
	vals := make(map[addrs.InstanceKey]cty.Value, len(exp.Keys))
	for _, k := range exp.Keys {
		ci := parent.Child(name, k)
		outs := make(map[string]cty.Value, len(child.Outputs))
		for oname := range child.Outputs {
			if outputs != nil && !slices.Contains(outputs, oname) {
				continue
			}
			if d, ok := frame.loop(ci, lazyKey{outputValue, oname}, rng); ok {
				outs[oname], loops = cty.DynamicVal, loops.Append(d)
				continue
			}
			v, ds, loop := e.outputValue(ci, oname, frame)
			// A deprecated output warns where the caller uses it.
			outs[oname] = lang.OutputDeprecated(v, name, child.Outputs[oname], child)
			if loop {
				loops = loops.Append(ds)
			}
		}
		vals[k] = cty.ObjectVal(outs)
	}
	return exp.WholeValue(vals), loops
}

// expansionLoop reports whether computing the expansion of call name in
// module instance parent found a loop through it.
func (e *Evaluator) expansionLoop(parent addrs.ModuleInstance, name string) bool {
	l, ok := e.calls.Computed(callKey{parent, name})
	return ok && l.loop
}

// moduleData is the lang.Data of one module instance; frame is the value
// whose computation evaluates the expression (nil at the start of a path).
type moduleData struct {
	e     *Evaluator
	me    *moduleEntry
	frame *evalFrame
}

var _ lang.Data = moduleData{}

func (d moduleData) InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	declared := d.me.cfg != nil && d.me.cfg.Variables[name] != nil
	if d.me.addr.IsRoot() {
		_, declared = d.e.Variables[name]
	}
	if !declared {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared input variable",
			fmt.Sprintf("An input variable with the name %q has not been declared.", name))}
	}
	if ld, ok := d.frame.loop(d.me.addr, lazyKey{variableValue, name}, rng); ok {
		return cty.DynamicVal, diag.Diagnostics{ld}
	}
	v, ds, loop := d.e.inputVariable(d.me.addr, name, d.frame)
	if loop {
		return v, ds
	}
	if d.me.addr.IsRoot() && d.me.cfg != nil && d.me.cfg.Variables[name] != nil && d.me.cfg.Variables[name].Sensitive {
		// A child's sensitive variables are marked when computed.
		v = v.Mark(lang.Sensitive)
	}
	if d.me.addr.IsRoot() && d.me.cfg != nil && d.me.cfg.Variables[name] != nil && d.me.cfg.Variables[name].Ephemeral {
		v = marks.MarkEphemeral(v)
	}
	// A variable's own errors are reported once, by whoever plans it.
	return v, nil
}

func (d moduleData) LocalValue(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if d.me.cfg == nil || d.me.cfg.Locals[name] == nil {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared local value",
			fmt.Sprintf("A local value with the name %q has not been declared.", name))}
	}
	if ld, ok := d.frame.loop(d.me.addr, lazyKey{localValue, name}, rng); ok {
		return cty.DynamicVal, diag.Diagnostics{ld}
	}
	v, ds, loop := d.e.localValue(d.me.addr, name, d.frame)
	if loop {
		// A loop is reported wherever it stops an evaluation.
		return v, ds
	}
	// Reported once, where the local is declared, not at every reference.
	return v, nil
}

func (d moduleData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	v := d.e.Resources.ResourceValue(addr.Absolute(d.me.addr))
	if d.me.cfg == nil {
		return v, nil
	}
	// Its deprecated attributes warn where the expression uses them.
	return d.e.markDeprecatedAttributes(d.me.cfg, d.me.cfg.ResourceByAddr(addr), v), nil
}

func (d moduleData) ModuleCall(name string, outputs []string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if d.me.cfg == nil || d.me.cfg.ModuleCalls[name] == nil {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Reference to undeclared module",
			fmt.Sprintf("No module call named %q is declared in this module.", name))}
	}
	return d.e.moduleCallValue(d.me.addr, name, outputs, d.frame, rng)
}

// ConfiguredProvider returns the instance of provider configuration pc,
// configured (once per run, in provider.Set) from its block evaluated in the
// block's module; an instance of a block with for_each (pc.Key) with its
// each.key and each.value. A default configuration without a block is
// empty. The provider's diagnostics about the configuration are placed in
// the block.
func (e *Evaluator) ConfiguredProvider(ctx context.Context, set *provider.Set, pc addrs.AbsProviderConfig) (provider.Interface, diag.Diagnostics) {
	return set.ConfiguredFrom(ctx, pc, func(s *provider.Schemas) (cty.Value, hcl.Body, diag.Diagnostics) {
		block := e.ProviderBlock(pc)
		if block == nil {
			if pc.Alias != "" {
				return cty.NilVal, nil, diag.Diagnostics{diag.Errorf("Provider configuration not present",
					"To work with resources of %s, rig needs the provider configuration %s, which is not declared.", pc.Provider.ForDisplay(), pc.Config())}
			}
			return emptyObject(s.Provider.Block.ImpliedType()), nil, nil
		}
		inst, ok, ds := e.ProviderInstance(pc)
		if ds.HasErrors() {
			return cty.NilVal, nil, ds
		}
		switch {
		case !ok && block.ForEach != nil && pc.Key.IsNone():
			return cty.NilVal, nil, ds.Append(diag.At(block.DeclRange, "Provider instance not present",
				fmt.Sprintf("The provider configuration %s uses for_each: an instance key must select one of its instances.", pc)))
		case !ok:
			return cty.NilVal, nil, ds.Append(diag.At(block.DeclRange, "Provider instance not present",
				fmt.Sprintf("The provider configuration %s declares no instance %s.", pc.Config(), pc)))
		}
		v, more := e.Scope(pc.Module, inst).EvalBlock(block.Config, s.Provider.Block.DecoderSpec())
		return v, block.Config, ds.Append(more)
	})
}

// ProviderBlock returns the provider block that configures pc (its module's
// block of the same provider and alias), or nil.
func (e *Evaluator) ProviderBlock(pc addrs.AbsProviderConfig) *config.Provider {
	m := e.Config.Descendant(pc.Module.Module())
	if m == nil {
		return nil
	}
	// Usually the local name is the provider's type.
	key := pc.Provider.Type
	if pc.Alias != "" {
		key += "." + pc.Alias
	}
	if pb := m.ProviderConfigs[key]; pb != nil && m.ProviderFor(pb.Name) == pc.Provider {
		return pb
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		pb := m.ProviderConfigs[key]
		if m.ProviderFor(pb.Name) == pc.Provider && pb.Alias == pc.Alias {
			return pb
		}
	}
	return nil
}

// ProviderInstance reports whether the configuration declares provider
// configuration instance pc, and gives its each.key and each.value: a
// block without for_each has the instance without a key, a block with
// for_each one instance per element (see ProviderExpansion). A default
// configuration without a block has the instance without a key; an alias
// without a block, none.
func (e *Evaluator) ProviderInstance(pc addrs.AbsProviderConfig) (lang.InstanceData, bool, diag.Diagnostics) {
	block := e.ProviderBlock(pc)
	if block == nil {
		return lang.InstanceData{}, pc.Alias == "" && pc.Key.IsNone(), nil
	}
	if block.ForEach == nil {
		return lang.InstanceData{}, pc.Key.IsNone(), nil
	}
	exp, ds := e.ProviderExpansion(pc.Module, block)
	if ds.HasErrors() || !exp.Has(pc.Key) {
		return lang.InstanceData{}, false, ds
	}
	return exp.InstanceData(pc.Key), true, ds
}

// ProviderExpansion evaluates the for_each of provider block pb of module
// mi, once. Like OpenTofu, it is evaluated statically: it may refer to
// input variables, local values (which refer to no more than those), path
// and terraform.workspace, not to resources, data sources or modules.
func (e *Evaluator) ProviderExpansion(mi addrs.ModuleInstance, pb *config.Provider) (Expansion, diag.Diagnostics) {
	l, _ := e.provs.Do(pb, func(l *lazyExpansion) {
		if ds := CheckProviderForEach(e.module(mi).cfg, pb); ds.HasErrors() {
			l.exp, l.diags = Expansion{Mode: ForEach}, ds
			return
		}
		l.exp, l.diags = ExpandRepetition(e.Scope(mi, lang.InstanceData{}), nil, pb.ForEach)
	})
	return l.exp, l.diags
}

// ProviderMeta returns the value of the provider_meta block module mi
// declares for provider p (decoded against the provider's provider_meta
// schema), sent with every operation on the module's resources of that
// provider; cty.NilVal when the module has none. It is computed once per
// module; its diagnostics (a provider without a provider_meta schema, an
// invalid block) go to the first caller only, naming resource.
func (e *Evaluator) ProviderMeta(ctx context.Context, set *provider.Set, mi addrs.ModuleInstance, p addrs.Provider, resource string) (cty.Value, diag.Diagnostics) {
	m := e.Config.Descendant(mi.Module())
	if m == nil || m.Terraform == nil || len(m.Terraform.ProviderMetas) == 0 {
		return cty.NilVal, nil
	}
	l, first := e.metas.Do(metaKey{mi.Module(), p}, func(l *lazyValue) {
		l.val = cty.NilVal
		var pm *config.ProviderMeta
		for _, name := range slices.Sorted(maps.Keys(m.Terraform.ProviderMetas)) {
			if m.ProviderFor(name) == p {
				pm = m.Terraform.ProviderMetas[name]
				break
			}
		}
		if pm == nil {
			return
		}
		schemas, ds := set.Schemas(ctx, p)
		if ds.HasErrors() {
			return
		}
		if schemas.ProviderMeta == nil || schemas.ProviderMeta.Block == nil {
			l.diags = diag.Diagnostics{diag.At(pm.ProviderRange, fmt.Sprintf("Provider %s doesn't support provider_meta", p),
				fmt.Sprintf("The resource %s belongs to a provider that doesn't support provider_meta blocks", resource))}
			return
		}
		v, ds := e.Scope(mi, lang.InstanceData{}).EvalBlock(pm.Config, schemas.ProviderMeta.Block.DecoderSpec())
		if ds.HasErrors() {
			l.diags = ds
			return
		}
		l.val, l.diags = v, ds
	})
	if !first {
		return l.val, nil
	}
	return l.val, l.diags
}

// emptyObject returns an object of type ty whose attributes are all null.
func emptyObject(ty cty.Type) cty.Value {
	if !ty.IsObjectType() {
		return cty.NullVal(ty)
	}
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		vals[name] = cty.NullVal(at)
	}
	return cty.ObjectVal(vals)
}
