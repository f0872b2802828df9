package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/ctymarks"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
)

// deprecatedArgument is the warning OpenTofu gives where a module call
// sets a variable its module declares deprecated, at the argument's value.
// It is marked as being about a remote module when child, or a module it
// is inside, was installed from a remote source, so that
// -deprecation=module:local can leave it out.
func deprecatedArgument(v *config.Variable, attr *hcl.Attribute, child *config.Module) diag.Diagnostic {
	d := diag.At(attr.Expr.Range(), "Variable marked as deprecated by the module author",
		fmt.Sprintf("Variable %q is marked as deprecated with the following message:\n%s", v.Name, v.Deprecated))
	d.Severity = diag.Warning
	d.Deprecation = diag.LocalModuleDeprecation
	// As OpenTofu: warnings about different variables (or messages) are
	// not consolidated with each other.
	d.GroupKey = v.Name + "\n" + v.Deprecated
	if FromRemoteModule(child) {
		d.Deprecation = diag.RemoteModuleDeprecation
	}
	return d
}

// FromRemoteModule reports whether m, or a module it is inside, is called
// with a source that is not a local path: a module its callers did not
// write and cannot change.
func FromRemoteModule(m *config.Module) bool {
	for mod := m; mod.Parent != nil; mod = mod.Parent {
		_, name := mod.Path.Parent()
		if call := mod.Parent.ModuleCalls[name]; call != nil && !config.IsLocalSource(call.Source) {
			return true
		}
	}
	return false
}

// deprecation is the mark of a value derived from a deprecated module
// output (OpenTofu 1.10, Terraform 1.15): By names the output as its
// caller refers to it (module.net.subnet_id), Message is its deprecated
// argument, and Remote says whether its module was installed from a remote
// source. Marks are comparable values, so this is a struct of strings.
type deprecation struct {
	By, Message string
	Remote      bool
}

// MarkDeprecated marks v as derived from the deprecated output by (as its
// caller refers to it) of a module, with the output's message; remote says
// whether the module was installed from a remote source. The mark goes
// with v through evaluation until an expression uses it, where
// ExtractDeprecations turns it into a warning.
func MarkDeprecated(v cty.Value, by, message string, remote bool) cty.Value {
	return v.Mark(DeprecationMark(by, message, remote))
}

// DeprecationMark returns the mark MarkDeprecated puts on a value, for
// marking values at paths (cty.Value.MarkWithPaths): a deprecated
// provider attribute (by names it, test_thing.a.old_name) as much as a
// deprecated module output.
func DeprecationMark(by, message string, remote bool) any {
	return deprecation{By: by, Message: message, Remote: remote}
}

// OutputDeprecated marks the value of output out of module child, called
// as call, when out is deprecated; otherwise it returns v as it is.
func OutputDeprecated(v cty.Value, call string, out *config.Output, child *config.Module) cty.Value {
	if out == nil || out.Deprecated == "" {
		return v
	}
	return MarkDeprecated(v, "module."+call+"."+out.Name, out.Deprecated, FromRemoteModule(child))
}

// ExtractDeprecations returns v without its deprecation marks (others,
// such as Sensitive, stay), and for each a warning at rng, "Value derived
// from a deprecated source", worded as OpenTofu words it. The warnings
// carry their module's Deprecation class, so that -deprecation may hide
// them. v may be any value, marked or not; a value without deprecation
// marks comes back unchanged.
func ExtractDeprecations(v cty.Value, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	return extractDeprecations(v, true, func(d *diag.Diagnostic, _ cty.Path) { d.Subject = rng.Ptr() })
}

// extractDeprecationsIn is ExtractDeprecations for the value of a block
// decoded from body: each warning is at the argument its path leads to,
// or at the body when none does. Since the warning points at the
// argument, its detail says "This value", as OpenTofu words the warnings
// of a block's arguments.
func extractDeprecationsIn(v cty.Value, body hcl.Body) (cty.Value, diag.Diagnostics) {
	out, ds := extractDeprecations(v, false, func(d *diag.Diagnostic, path cty.Path) { d.AttributePath = path })
	ds = ds.InBody(body)
	for i := range ds {
		if ds[i].Subject == nil {
			ds[i].Subject = body.MissingItemRange().Ptr()
		}
		ds[i].AttributePath = nil
	}
	return out, ds
}

// extractDeprecations is ExtractDeprecations with the place of each
// warning set by place; namePath names the attribute path within the value
// in the detail ("This value's attribute x").
func extractDeprecations(v cty.Value, namePath bool, place func(*diag.Diagnostic, cty.Path)) (cty.Value, diag.Diagnostics) {
	if !marks.Any(v) {
		return v, nil
	}
	var ds diag.Diagnostics
	out, _ := v.WrangleMarksDeep(func(mark any, path cty.Path) (ctymarks.WrangleAction, error) {
		dm, ok := mark.(deprecation)
		if !ok {
			return nil, nil
		}
		path = path.Copy() // the walk reuses its path
		source := "This value"
		if p := diag.FormatPath(path); p != "" && namePath {
			source += "'s attribute " + p
		}
		detail := fmt.Sprintf("%s is derived from %s, which is deprecated.", source, dm.By)
		if dm.Message != "" {
			detail = fmt.Sprintf("%s is derived from %s, which is deprecated with the following message:\n\n%s", source, dm.By, dm.Message)
		}
		d := diag.Diagnostic{Severity: diag.Warning, Summary: "Value derived from a deprecated source",
			Detail:      detail,
			Deprecation: diag.LocalModuleDeprecation, GroupKey: dm.By}
		if dm.Remote {
			d.Deprecation = diag.RemoteModuleDeprecation
		}
		place(&d, path)
		ds = ds.Append(d)
		return ctymarks.WrangleDrop, nil
	})
	return out, ds
}
