package planner

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// validationData answers the references of module m's expressions as
// OpenTofu's validate walk does, without variable values or state: an
// input variable is an unknown value of its declared type (sensitive or
// ephemeral as declared), a local value is its expression evaluated so
// (known when it needs nothing unknown), and resources and module
// outputs are unknown. It is not safe for concurrent use: the checks of
// a validation run one after another.
type validationData struct {
	m *config.Module
	// scope evaluates the local values; its Data is this validationData.
	scope *lang.Scope

	// locals holds the local values evaluated so far; evaluating names
	// those being evaluated now (a reference back to one is a cycle,
	// reported elsewhere, and is unknown here).
	locals     map[string]cty.Value
	evaluating map[string]bool
	// schemas, when set, give a resource without count or for_each its
	// sensitive attributes (unknownResourceValue); else resources are
	// wholly unknown.
	schemas map[addrs.ConfigResource]provider.Schema
}

func (d *validationData) InputVariable(name string, _ hcl.Range) (cty.Value, diag.Diagnostics) {
	v := d.m.Variables[name]
	if v == nil {
		return cty.DynamicVal, nil
	}
	ty := v.ConcreteType
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	val := cty.UnknownVal(ty)
	if v.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	if v.Ephemeral {
		val = marks.MarkEphemeral(val)
	}
	return val, nil
}

// LocalValue evaluates local value name. A local value whose expression
// has errors is unknown here: validation reports the references it makes
// (lang.CheckReferences) and a plan reports the rest.
func (d *validationData) LocalValue(name string, _ hcl.Range) (cty.Value, diag.Diagnostics) {
	l := d.m.Locals[name]
	if l == nil {
		return cty.DynamicVal, nil
	}
	if v, ok := d.locals[name]; ok {
		return v, nil
	}
	if d.evaluating[name] {
		return cty.DynamicVal, nil
	}
	if d.evaluating == nil {
		d.evaluating = map[string]bool{}
	}
	d.evaluating[name] = true

	s := *d.scope
	s.Instance, s.Self = lang.InstanceData{}, cty.NilVal
	v, ds := s.EvalExpr(l.Expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		v = cty.DynamicVal
	}

	delete(d.evaluating, name)
	d.locals[name] = v
	return v, nil
}

func (d *validationData) Resource(addr addrs.Resource, _ hcl.Range) (cty.Value, diag.Diagnostics) {
	if addr.Mode == addrs.Ephemeral {
		return marks.MarkEphemeral(cty.DynamicVal), nil
	}
	if r := d.m.ResourceByAddr(addr); r != nil && d.schemas != nil && r.Count == nil && r.ForEach == nil && r.Enabled == nil {
		if sch, ok := d.schemas[addrs.ConfigResource{Module: d.m.Path, Resource: addr}]; ok {
			return unknownResourceValue(sch.Block), nil
		}
	}
	return cty.DynamicVal, nil
}

func (d *validationData) ModuleCall(string, []string, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}

// staticVariables are the root variables' values for what validation
// evaluates statically: the values given, checked and converted as a plan
// does (a value that is not suitable, or a required variable without one,
// is unknown; the plan reports them), or with none given the defaults.
func staticVariables(cfg *config.Module, given map[string]InputValue) map[string]cty.Value {
	if given == nil {
		return variableDefaults(cfg)
	}
	vals, _ := prepareVariables(cfg, given)
	return vals
}

// variableDefaults returns the defaults of the root module's input
// variables that have one.
func variableDefaults(cfg *config.Module) map[string]cty.Value {
	out := map[string]cty.Value{}
	for name, v := range cfg.Variables {
		if v.Default != cty.NilVal {
			out[name] = v.Default
		}
	}
	return out
}
