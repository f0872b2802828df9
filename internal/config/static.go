package config

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/diag"
)

// StaticRequest is an expression to evaluate before anything is planned
// (a module call's source or version, a backend or encryption setting, a
// const variable).
type StaticRequest struct {
	// Module is the module the expression is written in.
	Module *Module
	Expr   hcl.Expression
	// What names what the value is for, as diagnostics name it
	// ("module.net.source", "backend.local"); "" for a const variable's
	// own check.
	What string
	// AllowSensitive accepts a value derived from a sensitive one (a
	// backend password, an encryption passphrase); otherwise such a value
	// is an error.
	AllowSensitive bool
}

// StaticEvaluator evaluates expressions statically: with input variables,
// local values, path and terraform.workspace only, as OpenTofu's static
// evaluation does. A module's variables are the values given to the root
// module (-var, files, environment) or, below it, its caller's arguments,
// themselves evaluated statically.
type StaticEvaluator interface {
	// EvalStatic returns the request's value without marks, or
	// diagnostics saying why it cannot be computed statically.
	EvalStatic(req StaticRequest) (cty.Value, diag.Diagnostics)
}

// StaticValue evaluates expr of module m statically for what (see
// StaticRequest), with the evaluator the tree was loaded with; without
// one (LoadDir, LoadFiles), expr must be a constant.
func (m *Module) StaticValue(expr hcl.Expression, what string, allowSensitive bool) (cty.Value, diag.Diagnostics) {
	if m.static == nil {
		v, hds := expr.Value(nil)
		return v, diag.FromHCL(hds)
	}
	return m.static.EvalStatic(StaticRequest{Module: m, Expr: expr, What: what, AllowSensitive: allowSensitive})
}

// needsStatic reports whether expr must wait for static evaluation: it
// refers to something or calls a function. Other expressions are decoded
// as constants when the file loads.
func needsStatic(expr hcl.Expression) bool {
	if len(expr.Variables()) > 0 {
		return true
	}
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		return false
	}
	calls := false
	hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			calls = true
		}
		return nil
	})
	return calls
}

// resolveCall sets call's Source and Version from the expressions that
// were left for static evaluation, once; later calls return the first
// diagnostics again. OpenTofu evaluates version first: a null version is
// no version.
func (m *Module) resolveCall(call *ModuleCall) diag.Diagnostics {
	if call.static == nil {
		return nil
	}
	st := call.static
	if st.done {
		return st.diags
	}
	st.done = true
	if st.version != nil {
		v, ds := m.StaticValue(st.version, fmt.Sprintf("module.%s.version", call.Name), false)
		for i := range ds {
			if ds[i].Summary == "Sensitive value not allowed" {
				// OpenTofu's words for a version.
				ds[i].Summary = "Invalid version constraint"
				ds[i].Detail = "Sensitive values, or values derived from sensitive values, cannot be used as version arguments."
			}
		}
		st.diags = st.diags.Append(ds)
		if !ds.HasErrors() {
			if v.IsNull() {
				call.Version, call.VersionRange = "", nil
			} else {
				s, more := versionConstraintValue(v, "version", st.version.Range())
				st.diags = st.diags.Append(diag.FromHCL(more))
				call.Version = s
			}
		}
	}
	if st.source != nil {
		v, ds := m.StaticValue(st.source, fmt.Sprintf("module.%s.source", call.Name), false)
		st.diags = st.diags.Append(ds)
		if !ds.HasErrors() {
			s, err := staticString(v)
			if err != nil {
				st.diags = st.diags.Append(diag.At(st.source.Range(), "Incorrect attribute value type",
					fmt.Sprintf("Inappropriate value for attribute \"source\": %s.", err)))
			} else {
				call.Source = s
			}
		}
	}
	if st.diags.HasErrors() {
		call.Source = ""
	}
	return st.diags
}

// staticString converts a static value to a string, refusing null and
// unknown values.
func staticString(v cty.Value) (string, error) {
	if v.IsNull() {
		return "", fmt.Errorf("value must not be null")
	}
	if !v.IsWhollyKnown() {
		return "", fmt.Errorf("value must be known")
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", err
	}
	return s.AsString(), nil
}

// callStatic holds what a module call left for static evaluation.
type callStatic struct {
	source, version hcl.Expression
	done            bool
	diags           diag.Diagnostics
}

// SourceExpr returns the expression of call's source argument when it is
// evaluated statically (it refers to variables or locals), else nil.
func (call *ModuleCall) SourceExpr() hcl.Expression {
	if call.static == nil {
		return nil
	}
	return call.static.source
}

// checkConstVariables evaluates every const = true variable of m
// statically, as OpenTofu 1.12 does while loading: a root module's must
// be given (or have a default), a child's caller must pass a value known
// statically. Without a static evaluator there is nothing to check.
func checkConstVariables(m *Module) diag.Diagnostics {
	if m.static == nil {
		return nil
	}
	var ds diag.Diagnostics
	for _, name := range sortedKeys(m.Variables) {
		v := m.Variables[name]
		if !v.Const {
			continue
		}
		ref := &hclsyntax.ScopeTraversalExpr{
			Traversal: hcl.Traversal{hcl.TraverseRoot{Name: "var", SrcRange: v.DeclRange}, hcl.TraverseAttr{Name: name, SrcRange: v.DeclRange}},
			SrcRange:  v.DeclRange,
		}
		_, more := m.static.EvalStatic(StaticRequest{Module: m, Expr: ref, AllowSensitive: true})
		ds = ds.Append(more)
		ds = ds.Append(constCallDiagnostic(m, name, more))
	}
	return ds
}

// constCallDiagnostic is OpenTofu's note, at the module call, that the
// const variable name of child module m could not be computed, when ds
// (its evaluation's diagnostics) has errors.
func constCallDiagnostic(m *Module, name string, ds diag.Diagnostics) diag.Diagnostics {
	if !ds.HasErrors() || m.Parent == nil {
		return nil
	}
	calls := m.Path.Calls()
	if len(calls) == 0 {
		return nil
	}
	call := m.Parent.ModuleCalls[calls[len(calls)-1]]
	if call == nil {
		return nil
	}
	return diag.Diagnostics{diag.At(call.DeclRange, "Unable to compute static value",
		fmt.Sprintf("%s: depends on %s:var.%s which is not available", m.Path, m.Path, name))}
}

// ResolveCall sets the source and version of a call of m that refer to
// variables or locals, with the evaluator given (the module installer's,
// for a module it loaded with LoadDir; nil uses m's own), and returns the
// diagnostics of evaluating them (the first evaluation's, on later calls).
// Call it before reading call.Source or call.Version of a module not
// loaded by LoadTree.
func (m *Module) ResolveCall(call *ModuleCall, se StaticEvaluator) diag.Diagnostics {
	if se != nil && m.static == nil {
		m.static = se
	}
	return m.resolveCall(call)
}

// SetStatic places m in a tree being loaded outside LoadTree (by the
// module installer): its path and parent, and the evaluator for its
// static expressions. It then checks m's const variables.
func (m *Module) SetStatic(parent *Module, name string, se StaticEvaluator) diag.Diagnostics {
	m.Parent = parent
	if parent != nil {
		m.Path = parent.Path.Child(name)
	}
	m.static = se
	return checkConstVariables(m)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// staticValueIn is m.StaticValue accepting sensitive values, constants
// only when m is nil.
func staticValueIn(m *Module, expr hcl.Expression, what string) (cty.Value, diag.Diagnostics) {
	if m == nil {
		v, hds := expr.Value(nil)
		return v, diag.FromHCL(hds)
	}
	return m.StaticValue(expr, what, true)
}
