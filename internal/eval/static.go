package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// CheckProviderForEach reports what the for_each of provider block pb of
// module m refers to that it may not: anything but input variables, local
// values that refer to no more, path and terraform.workspace.
func CheckProviderForEach(m *config.Module, pb *config.Provider) diag.Diagnostics {
	if pb.ForEach == nil {
		return nil
	}
	ident := fmt.Sprintf("provider.%s.%s.for_each", pb.Name, pb.Alias)
	if m != nil && !m.Path.IsRoot() {
		ident = string(m.Path) + "." + ident
	}
	return checkStatic(m, pb.ForEach, ident, map[string]bool{}, map[string]bool{})
}

// checkStatic reports the references of expr (evaluated in module m, for
// what ident names) that a static evaluation cannot resolve, following
// local values; seen holds the local values already followed, following
// those being followed now (a local value that needs itself is a circular
// reference).
func checkStatic(m *config.Module, expr hcl.Expression, ident string, seen, following map[string]bool) diag.Diagnostics {
	refs, ds := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		if ref.Kind != lang.LocalValue {
			ds = ds.Append(staticRefProblem(ref, ident))
			continue
		}
		l := localByName(m, ref.Name)
		if following[ref.Name] && l != nil {
			ds = ds.Append(diag.At(l.DeclRange, "Circular reference", fmt.Sprintf("local.%s is self referential", ref.Name)))
			continue
		}
		if seen[ref.Name] {
			continue
		}
		seen[ref.Name] = true
		if l == nil {
			continue // reported by the reference checks
		}
		following[ref.Name] = true
		more := checkStatic(m, l.Expr, "local."+ref.Name, seen, following)
		delete(following, ref.Name)
		if more.HasErrors() {
			ds = ds.Append(more)
			ds = ds.Append(diag.At(expr.Range(), "Unable to compute static value",
				fmt.Sprintf("%s depends on local.%s which is not available", ident, ref.Name)))
		}
	}
	return ds
}

// staticRefProblem is the problem of a reference that a static evaluation
// cannot resolve, written for what needs it; nil for those it can:
// variables, local values, path.module, path.root, path.cwd and
// terraform.workspace.
func staticRefProblem(ref *lang.Reference, what string) diag.Diagnostics {
	switch ref.Kind {
	case lang.InputVariable, lang.LocalValue, lang.PathModule, lang.PathRoot, lang.PathCwd, lang.TerraformWorkspace:
		return nil
	case lang.ModuleCallOutput:
		return diag.Diagnostics{diag.At(ref.Range, "Module output not supported in static context",
			fmt.Sprintf("Unable to use %s in static context, which is required by %s", ref, what))}
	}
	return diag.Diagnostics{diag.At(ref.Range, "Dynamic value in static context",
		fmt.Sprintf("Unable to use %s in static context, which is required by %s", ref, what))}
}

func localByName(m *config.Module, name string) *config.Local {
	if m == nil {
		return nil
	}
	return m.Locals[name]
}
