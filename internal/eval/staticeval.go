package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
)

// Static evaluates the expressions a configuration needs before it can be
// planned (config.StaticEvaluator): module sources and versions, backend
// and encryption settings, const variables. Only input variables, local
// values, path and terraform.workspace are available, as in OpenTofu's
// static evaluation; a root module's variables come from Root, a child's
// from its caller's arguments, evaluated statically in the caller. Values
// are computed on every request (there are few), so a Static is safe for
// concurrent use if Root is.
type Static struct {
	// Root returns the value given for variable v of the root module
	// root (from -var, variable files or the environment, or asked for):
	// given is false when there is none, and the default applies. Nil
	// gives none.
	Root func(root *config.Module, v *config.Variable) (val cty.Value, given bool, ds diag.Diagnostics)
	// Env holds path.cwd and terraform.workspace; path.root is the root
	// module's directory.
	lang.Env
}

var _ config.StaticEvaluator = (*Static)(nil)

// staticFrame is one value being computed: what it is for, as
// diagnostics name it, and where it is declared.
type staticFrame struct {
	what string
	rng  hcl.Range
}

// EvalStatic implements config.StaticEvaluator.
func (s *Static) EvalStatic(req config.StaticRequest) (cty.Value, diag.Diagnostics) {
	what := req.What
	if what != "" {
		what = staticName(req.Module, what)
	}
	v, ds := s.eval(req.Module, req.Expr, []staticFrame{{what: what, rng: req.Expr.Range()}})
	if ds.HasErrors() {
		return cty.DynamicVal, ds
	}
	if !req.AllowSensitive && marks.Contains(v) {
		return cty.DynamicVal, ds.Append(diag.At(req.Expr.Range(), "Sensitive value not allowed",
			fmt.Sprintf("Sensitive values, or values derived from sensitive values, cannot be used as %s.", what)))
	}
	v, _ = v.UnmarkDeep()
	return v, ds
}

// staticName qualifies what with the path of the module it belongs to,
// as OpenTofu names static values ("module.net:local.cidr").
func staticName(m *config.Module, what string) string {
	if m == nil || m.Path.IsRoot() {
		return what
	}
	return string(m.Path) + ":" + what
}

// eval evaluates expr of module m; stack holds the values being computed,
// the one expr is for last.
func (s *Static) eval(m *config.Module, expr hcl.Expression, stack []staticFrame) (cty.Value, diag.Diagnostics) {
	top := stack[len(stack)-1]
	refs, ds := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		ds = ds.Append(staticRefProblem(ref, top.what))
	}
	if ds.HasErrors() {
		return cty.DynamicVal, ds
	}
	scope := &lang.Scope{
		Data:      staticData{s: s, m: m, stack: stack},
		ModuleDir: dirOf(m),
		RootDir:   dirOf(rootOf(m)),
		Env:       s.Env,
	}
	v, more := scope.EvalExpr(expr, cty.DynamicPseudoType)
	return v, ds.Append(more)
}

// push returns stack with f on top, or a "Circular reference" diagnostic
// when f is already being computed.
func push(stack []staticFrame, f staticFrame) ([]staticFrame, diag.Diagnostics) {
	for _, g := range stack {
		if g.what == f.what {
			return nil, diag.Diagnostics{diag.At(f.rng, "Circular reference", fmt.Sprintf("%s is self referential", f.what))}
		}
	}
	return append(stack[:len(stack):len(stack)], f), nil
}

// dependsOn adds to ds, when it has errors, OpenTofu's note that the
// value on top of stack needs dep, which could not be computed.
func dependsOn(stack []staticFrame, dep staticFrame, ds diag.Diagnostics) diag.Diagnostics {
	top := stack[len(stack)-1]
	if !ds.HasErrors() || top.what == "" || top.what == dep.what {
		return ds
	}
	return ds.Append(diag.At(top.rng, "Unable to compute static value",
		fmt.Sprintf("%s depends on %s which is not available", top.what, dep.what)))
}

// staticData is the lang.Data of a static evaluation in module m.
type staticData struct {
	s     *Static
	m     *config.Module
	stack []staticFrame
}

func (d staticData) LocalValue(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	loc := d.m.Locals[name]
	if loc == nil {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Undefined local", fmt.Sprintf("Undefined local local.%s", name))}
	}
	f := staticFrame{what: staticName(d.m, "local."+name), rng: loc.DeclRange}
	stack, ds := push(d.stack, f)
	if ds.HasErrors() {
		return cty.DynamicVal, ds
	}
	v, ds := d.s.eval(d.m, loc.Expr, stack)
	return v, dependsOn(d.stack, f, ds)
}

func (d staticData) InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	v := d.m.Variables[name]
	if v == nil {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Undefined variable", fmt.Sprintf("Undefined variable var.%s", name))}
	}
	if v.ConstSet && !v.Const {
		return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Unable to use variable in static context",
			fmt.Sprintf("The variable %q cannot be used in a static context, because it is declared as \"const = false\".", name))}
	}
	f := staticFrame{what: staticName(d.m, "var."+name), rng: v.DeclRange}
	if _, ds := push(d.stack, f); ds.HasErrors() {
		return cty.DynamicVal, ds
	}
	val, ds := d.given(v)
	if ds.HasErrors() {
		return cty.DynamicVal, dependsOn(d.stack, f, ds)
	}
	out, more := PrepareVariable(v, val, v.DeclRange, variableAddr(d.m, v.Name))
	ds = ds.Append(more)
	if v.Sensitive {
		out = out.Mark(lang.Sensitive)
	}
	return out, dependsOn(d.stack, f, ds)
}

// given returns the value given for variable v of d.m: cty.NilVal when
// none is (its default applies).
func (d staticData) given(v *config.Variable) (cty.Value, diag.Diagnostics) {
	m := d.m
	if m.Parent == nil {
		if d.s.Root == nil {
			return d.missingRoot(v)
		}
		val, given, ds := d.s.Root(m, v)
		if ds.HasErrors() {
			return cty.NilVal, ds
		}
		if !given {
			return d.missingRoot(v)
		}
		return val, ds
	}
	_, callName := m.Path.Parent()
	call := m.Parent.ModuleCalls[callName]
	if call == nil {
		return cty.NilVal, nil
	}
	// Errors (a block among the arguments) are reported by the reference
	// checks.
	args, _ := call.Config.JustAttributes()
	arg, ok := args[v.Name]
	if !ok {
		if v.Required() {
			return cty.NilVal, diag.Diagnostics{diag.At(call.Config.MissingItemRange(), "Missing required variable in module call",
				fmt.Sprintf("The module call %s does not set the required variable %q.", callName, v.Name))}
		}
		return cty.NilVal, nil
	}
	f := staticFrame{what: staticName(m, "var."+v.Name), rng: arg.Range}
	return d.s.eval(m.Parent, arg.Expr, []staticFrame{f})
}

// missingRoot is the value of a root variable nothing sets: its default,
// or for a required one OpenTofu's error when it cannot ask for it.
func (d staticData) missingRoot(v *config.Variable) (cty.Value, diag.Diagnostics) {
	if !v.Required() {
		return cty.NilVal, nil
	}
	return cty.NilVal, diag.Diagnostics{diag.At(v.DeclRange, fmt.Sprintf("Failed to request input from user for variable var.%s", v.Name), "")}
}

// variableAddr is variable name of module m as messages name it
// ("var.region", "module.net.var.cidr").
func variableAddr(m *config.Module, name string) string {
	if m.Path.IsRoot() {
		return "var." + name
	}
	return string(m.Path) + ".var." + name
}

func (d staticData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Dynamic value in static context",
		fmt.Sprintf("Unable to use %s in static context, which is required by %s", addr, d.stack[len(d.stack)-1].what))}
}

func (d staticData) ModuleCall(name string, _ []string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, diag.Diagnostics{diag.At(rng, "Module output not supported in static context",
		fmt.Sprintf("Unable to use module.%s in static context, which is required by %s", name, d.stack[len(d.stack)-1].what))}
}

func rootOf(m *config.Module) *config.Module {
	for m != nil && m.Parent != nil {
		m = m.Parent
	}
	return m
}
