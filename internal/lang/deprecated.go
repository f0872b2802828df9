package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
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
	if fromRemoteModule(child) {
		d.Deprecation = diag.RemoteModuleDeprecation
	}
	return d
}

// fromRemoteModule reports whether m, or a module it is inside, is called
// with a source that is not a local path: a module its callers did not
// write and cannot change.
func fromRemoteModule(m *config.Module) bool {
	for mod := m; mod.Parent != nil; mod = mod.Parent {
		_, name := mod.Path.Parent()
		if call := mod.Parent.ModuleCalls[name]; call != nil && !config.IsLocalSource(call.Source) {
			return true
		}
	}
	return false
}
