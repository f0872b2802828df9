package lang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
)

// Data is what a Scope reads referenced values from; plan and apply
// implement it. Each method may return an unknown value (of any type,
// cty.DynamicVal included) when the value is not known yet. A value with
// error diagnostics is replaced by an unknown value.
type Data interface {
	InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics)
	LocalValue(name string, rng hcl.Range) (cty.Value, diag.Diagnostics)
	// Resource returns the whole resource: an object for a single instance,
	// a tuple for count, an object keyed by each.key for for_each.
	Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diag.Diagnostics)
	// ModuleCall returns the outputs of a module call: an object of output
	// values for a single instance, a tuple of them for count, an object
	// keyed by each.key for for_each. outputs names the outputs the
	// expression refers to (the objects may hold only those); nil means
	// every output (the module is referred to as a whole).
	ModuleCall(name string, outputs []string, rng hcl.Range) (cty.Value, diag.Diagnostics)
}

// InstanceData holds the repetition values of one resource instance;
// cty.NilVal where not applicable.
type InstanceData struct {
	CountIndex cty.Value
	EachKey    cty.Value
	// EachValue may be NilVal while EachKey is set (an instance whose key is
	// no longer in for_each); referring to each.value is then an error.
	EachValue cty.Value
}

// Scope evaluates expressions of one module instance, or of one resource
// instance when Instance or Self is set. A Scope is cheap to build: callers
// make one per instance. It is safe for concurrent use if Data is.
type Scope struct {
	Data Data
	// Env holds terraform.workspace, path.cwd and the bound on instances.
	Env
	// ModuleDir and RootDir are path.module and path.root, relative to
	// the working directory as OpenTofu gives them.
	ModuleDir, RootDir string
	// FileDir is the directory file functions resolve relative paths
	// against; "" is the process's working directory, as in OpenTofu,
	// whatever path.cwd says.
	FileDir string
	// Applying is terraform.applying: set while an apply evaluates.
	Applying bool
	Instance InstanceData
	// Self is the value of self (postconditions, provisioners); cty.NilVal
	// when self is not available.
	Self cty.Value
	// PlanTimestamp is what plantimestamp() returns; zero means unknown.
	PlanTimestamp time.Time
	// PureOnly makes impure functions (timestamp, uuid) return unknown
	// values, as during planning.
	PureOnly bool
	// ProviderFunctions are the provider-defined functions in scope besides
	// the library; nil means none.
	ProviderFunctions *ProviderFunctions
	// QuietDeprecations drops the deprecation marks of the values it
	// evaluates without warning about them (a module called with
	// ignore_nested_deprecations).
	QuietDeprecations bool
	// Shared, when not nil, is the context EvalBlock evaluates bodies
	// with instead of one built for each: it must hold every reference
	// the bodies make (NewSharedContext).
	Shared *SharedContext
}

// Functions returns the function table this scope evaluates with: the
// library and the provider functions. The map is shared: callers must not
// modify it.
func (s *Scope) Functions() map[string]function.Function {
	base := s.FileDir
	if base == "" {
		base = "."
	}
	return s.ProviderFunctions.table(funcKey{baseDir: base, planTimestamp: s.PlanTimestamp, pureOnly: s.PureOnly})
}

// EvalContext builds an evaluation context holding only the variables refs
// need (plus every function).
func (s *Scope) EvalContext(refs []*Reference) (*hcl.EvalContext, diag.Diagnostics) {
	ctx := &hcl.EvalContext{Functions: s.Functions()}
	if len(refs) == 0 {
		return ctx, nil
	}
	b := ctxBuilder{vars: make(map[string]cty.Value, len(refs)+1)}
	for _, ref := range refs {
		s.addRef(&b, ref)
	}
	s.addModuleCalls(&b)
	b.finish()
	ctx.Variables = b.vars
	return ctx, b.diags
}

// ctxBuilder collects the values of an EvalContext, root by root.
type ctxBuilder struct {
	vars                                    map[string]cty.Value
	diags                                   diag.Diagnostics
	managed, data, ephemeral                map[string]map[string]cty.Value
	lists                                   map[string]map[string]cty.Value
	resourceRoot                            bool
	vs, locals, paths, tf, count, each, mod map[string]cty.Value
	// calls collects the module calls referred to, with their outputs.
	calls []*moduleCallRefs

	// tofu holds the attributes referred to as tofu.ATTR.
	tofu map[string]cty.Value
}

// moduleCallRefs is what an expression refers to of one module call.
type moduleCallRefs struct {
	name    string
	whole   bool
	outputs []string
	rng     hcl.Range
}

func put(m *map[string]cty.Value, k string, v cty.Value) {
	if *m == nil {
		*m = make(map[string]cty.Value, 1)
	}
	(*m)[k] = v
}

func (s *Scope) addRef(b *ctxBuilder, ref *Reference) {
	switch ref.Kind {
	case ResourceRef:
		v, d := s.Data.Resource(ref.Resource, ref.Range)
		b.diags = append(b.diags, d...)
		into := &b.managed
		if ref.Resource.Mode == addrs.Data {
			into = &b.data
		} else if ref.Resource.Mode == addrs.Ephemeral {
			into = &b.ephemeral
		} else if ref.Resource.Mode == addrs.List {
			into = &b.lists
		} else if ref.viaResourceRoot {
			b.resourceRoot = true
		}
		if *into == nil {
			*into = make(map[string]map[string]cty.Value, 1)
		}
		byName := (*into)[ref.Resource.Type]
		if byName == nil {
			byName = make(map[string]cty.Value, 1)
			(*into)[ref.Resource.Type] = byName
		}
		byName[ref.Resource.Name] = normalizeRefValue(v, d)
	case InputVariable:
		v, d := s.Data.InputVariable(ref.Name, ref.Range)
		b.diags = append(b.diags, d...)
		put(&b.vs, ref.Name, normalizeRefValue(v, d))
	case LocalValue:
		v, d := s.Data.LocalValue(ref.Name, ref.Range)
		b.diags = append(b.diags, d...)
		put(&b.locals, ref.Name, normalizeRefValue(v, d))
	case CountIndex:
		v := s.Instance.CountIndex
		if v == cty.NilVal {
			b.diags = append(b.diags, diag.At(ref.Range, `Reference to "count" in non-counted context`,
				`The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`))
			v = cty.UnknownVal(cty.Number)
		}
		put(&b.count, "index", v)
	case EachKey, EachValue:
		name, v := "key", s.Instance.EachKey
		if ref.Kind == EachValue {
			name = "value"
			if s.Instance.EachKey != cty.NilVal {
				v = s.Instance.EachValue
				if v == cty.NilVal {
					b.diags = append(b.diags, diag.At(ref.Range, `each.value cannot be used in this context`,
						`A reference to "each.value" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its "for_each" expression. Remove this reference to each.value in your configuration to work around this error.`))
					put(&b.each, name, cty.DynamicVal)
					return
				}
			}
		}
		if s.Instance.EachKey == cty.NilVal {
			b.diags = append(b.diags, diag.At(ref.Range, `Reference to "each" in context without for_each`,
				`The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`))
			v = cty.DynamicVal
		}
		put(&b.each, name, v)
	case PathModule:
		put(&b.paths, "module", cty.StringVal(s.ModuleDir))
	case PathRoot:
		put(&b.paths, "root", cty.StringVal(s.RootDir))
	case PathCwd:
		put(&b.paths, "cwd", cty.StringVal(s.Cwd))
	case TerraformWorkspace:
		put(b.terraformObject(ref), "workspace", cty.StringVal(s.Workspace))
	case TerraformApplying:
		put(b.terraformObject(ref), "applying", marks.MarkEphemeral(cty.BoolVal(s.Applying)))
	case Self:
		if s.Self == cty.NilVal {
			b.diags = append(b.diags, diag.At(ref.Range, `Invalid "self" reference`,
				`The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`))
			b.vars["self"] = cty.DynamicVal
			return
		}
		b.vars["self"] = s.Self
	case ModuleCallOutput:
		var mc *moduleCallRefs
		for _, c := range b.calls {
			if c.name == ref.Name {
				mc = c
			}
		}
		if mc == nil {
			mc = &moduleCallRefs{name: ref.Name, rng: ref.Range}
			b.calls = append(b.calls, mc)
		}
		if ref.Output == "" {
			mc.whole = true
		} else if !slices.Contains(mc.outputs, ref.Output) {
			mc.outputs = append(mc.outputs, ref.Output)
		}
	}
}

// addModuleCalls reads the module calls referred to, each once, with only
// the outputs referred to unless the module is referred to as a whole: an
// output nothing here depends on may not be final yet.
func (s *Scope) addModuleCalls(b *ctxBuilder) {
	for _, mc := range b.calls {
		outputs := mc.outputs
		if mc.whole {
			outputs = nil
		}
		v, d := s.Data.ModuleCall(mc.name, outputs, mc.rng)
		b.diags = append(b.diags, d...)
		put(&b.mod, mc.name, normalizeRefValue(v, d))
	}
}

// terraformObject is the object a terraform.ATTR or tofu.ATTR reference is
// read from, under the name it was written with.
func (b *ctxBuilder) terraformObject(ref *Reference) *map[string]cty.Value {
	if ref.ViaTofu {
		return &b.tofu
	}
	return &b.tf
}

func (b *ctxBuilder) finish() {
	if b.managed != nil {
		for typeName, byName := range b.managed {
			b.vars[typeName] = cty.ObjectVal(byName)
		}
		if b.resourceRoot {
			objs := make(map[string]cty.Value, len(b.managed))
			for typeName := range b.managed {
				objs[typeName] = b.vars[typeName]
			}
			b.vars["resource"] = cty.ObjectVal(objs)
		}
	}
	if b.data != nil {
		b.vars["data"] = cty.ObjectVal(resourceObjects(b.data))
	}
	if b.ephemeral != nil {
		b.vars["ephemeral"] = cty.ObjectVal(resourceObjects(b.ephemeral))
	}
	if b.lists != nil {
		b.vars["list"] = cty.ObjectVal(resourceObjects(b.lists))
	}
	for _, root := range [...]struct {
		name string
		m    map[string]cty.Value
	}{{"var", b.vs}, {"local", b.locals}, {"path", b.paths}, {"terraform", b.tf}, {"tofu", b.tofu}, {"count", b.count}, {"each", b.each}, {"module", b.mod}} {
		if root.m != nil {
			b.vars[root.name] = cty.ObjectVal(root.m)
		}
	}
}

func resourceObjects(byType map[string]map[string]cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(byType))
	for typeName, byName := range byType {
		out[typeName] = cty.ObjectVal(byName)
	}
	return out
}

// normalizeRefValue replaces a value that came with errors by an unknown
// one, so that evaluation goes on without repeating the errors.
func normalizeRefValue(v cty.Value, diags diag.Diagnostics) cty.Value {
	if v == cty.NilVal {
		return cty.DynamicVal
	}
	if diags.HasErrors() {
		return cty.UnknownVal(v.Type())
	}
	return v
}

// EvalExpr evaluates expr and converts the result to want
// (cty.DynamicPseudoType: no conversion). With errors the result is an
// unknown value of want. A nil expr evaluates to null.
func (s *Scope) EvalExpr(expr hcl.Expression, want cty.Type) (cty.Value, diag.Diagnostics) {
	if expr == nil {
		return cty.NullVal(want), nil
	}
	refs, diags := cachedReferences(expr)
	ctx, ctxDiags := s.EvalContext(refs)
	diags = append(diags, ctxDiags...)
	if diags.HasErrors() {
		return cty.UnknownVal(want), diags
	}
	val, hdiags := expr.Value(ctx)
	s.ProviderFunctions.explainUnknown(hdiags)
	redactDiagnostics(hdiags)
	diags = diags.Append(diag.FromHCL(hdiags))
	if want != cty.DynamicPseudoType {
		conv, err := convert.Convert(val, want)
		if err != nil {
			d := diag.At(expr.Range(), "Incorrect value type", fmt.Sprintf("Invalid expression value: %s.", formatError(err)))
			d.Values = diag.TraversalValues(expr, ctx)
			return cty.UnknownVal(want), append(diags, d)
		}
		val = conv
	}
	val, more := ExtractDeprecations(val, expr.Range())
	if s.QuietDeprecations {
		more = nil
	}
	return val, diags.Append(more)
}

// EvalBlock expands the "dynamic" blocks of body and then decodes it with
// spec (typically the provider schema's). With errors the result may be
// partial or unknown. A nil body decodes as an empty one.
func (s *Scope) EvalBlock(body hcl.Body, spec hcldec.Spec) (cty.Value, diag.Diagnostics) {
	val, _, diags := s.EvalBlockMarked(body, spec)
	return val, diags
}

// EvalBlockMarked is EvalBlock that also reports whether the value
// carries any mark (marks.Any), found by the walk that looks for
// deprecation marks rather than by another.
func (s *Scope) EvalBlockMarked(body hcl.Body, spec hcldec.Spec) (cty.Value, bool, diag.Diagnostics) {
	if body == nil {
		body = hcl.EmptyBody()
	}
	cached := cachedBody(body, spec)
	diags := cached.diags
	var ctx *hcl.EvalContext
	if s.Shared != nil {
		ctx = s.Shared.ctx
	} else {
		var ctxDiags diag.Diagnostics
		ctx, ctxDiags = s.EvalContext(cached.refs)
		diags = append(diags, ctxDiags...)
	}
	if diags.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(spec)), false, diags
	}
	if cached.hasDynamic {
		body = dynblock.Expand(body, ctx)
	}
	var val cty.Value
	var hdiags hcl.Diagnostics
	if plain, ok := cached.plainValue(ctx); ok {
		val = plain
	} else {
		val, hdiags = hcldec.Decode(body, spec, ctx)
	}
	s.ProviderFunctions.explainUnknown(hdiags)
	redactDiagnostics(hdiags)
	marked := marks.Any(val)
	var more diag.Diagnostics
	if marked {
		val, more = extractDeprecationsIn(val, body)
		marked = marks.Any(val)
	}
	if s.QuietDeprecations {
		more = nil
	}
	return val, marked, diags.Append(diag.FromHCL(hdiags)).Append(more)
}

// formatError words a conversion error as OpenTofu's tfdiags.FormatError
// does: with the path to the offending nested value, if any.
func formatError(err error) string {
	perr, ok := err.(cty.PathError)
	if !ok || len(perr.Path) == 0 {
		return err.Error()
	}
	var b strings.Builder
	for _, step := range perr.Path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			b.WriteByte('[')
			switch {
			case s.Key.IsNull():
				b.WriteString("null")
			case !s.Key.IsKnown():
				b.WriteString("(not yet known)")
			case s.Key.Type() == cty.Number:
				b.WriteString(s.Key.AsBigFloat().Text('g', -1))
			case s.Key.Type() == cty.String:
				b.WriteString(strconv.Quote(s.Key.AsString()))
			default:
				b.WriteString("...")
			}
			b.WriteByte(']')
		}
	}
	return fmt.Sprintf("%s: %s", b.String(), perr.Error())
}
