package command

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/zclconf/go-cty/cty"
)

// consoleScope returns the scope and the configuration the console
// evaluates its expressions in: the module instance -scope names (as
// Terraform 1.16's console takes it), the root module when it is "". A
// module instance the configuration does not call, or whose call does not
// have that instance key, is an error.
func consoleScope(ev *eval.Evaluator, root *config.Module, scope string) (*lang.Scope, *config.Module, diag.Diagnostics) {
	mi, err := addrs.ParseModuleInstanceStr(scope)
	if err != nil {
		return nil, nil, diag.Diagnostics{diag.Errorf("Invalid module scope", "The -scope option takes a module instance address, such as module.network or module.app[\"eu\"]: %s.", err)}
	}
	cur, cfg := addrs.RootModule, root
	for _, step := range mi.Steps() {
		call := cfg.ModuleCalls[step.Name]
		child := root.Descendant(cur.Module().Child(step.Name))
		if call == nil || child == nil {
			return nil, nil, noConsoleScope(mi)
		}
		instances, _, ds := lang.EvalConsole(cfg, ev.Scope(cur, lang.InstanceData{}), "module."+step.Name)
		if ds.HasErrors() {
			return nil, nil, ds
		}
		if !moduleInstanceExists(call, instances, step.Key) {
			return nil, nil, noConsoleScope(mi)
		}
		cur, cfg = cur.Child(step.Name, step.Key), child
	}
	return ev.Scope(mi, lang.InstanceData{}), cfg, nil
}

// moduleInstanceExists reports whether call, whose value (module.NAME)
// is instances, has an instance with key.
func moduleInstanceExists(call *config.ModuleCall, instances cty.Value, key addrs.InstanceKey) bool {
	switch {
	case !instances.IsKnown() || instances.IsNull():
		return false
	case call.Count != nil:
		return key.IsInt() && instances.CanIterateElements() && key.Int() < instances.LengthInt()
	case call.ForEach != nil:
		if !key.IsString() {
			return false
		}
		ty := instances.Type()
		if ty.IsObjectType() {
			return ty.HasAttribute(key.Str())
		}
		return ty.IsMapType() && instances.HasIndex(cty.StringVal(key.Str())).True()
	}
	return key.IsNone()
}

// noConsoleScope is the error for a -scope that names no module instance.
func noConsoleScope(mi addrs.ModuleInstance) diag.Diagnostics {
	return diag.Diagnostics{diag.Errorf("Failed to retrieve evaluation scope",
		"The module address %q does not have an evaluation scope. This usually indicates that the module or the specific module instance provided does not exist.", mi.String())}
}
