package apply

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
)

// A resource's conditions are evaluated again at apply, as OpenTofu does,
// once the values they refer to are known: its preconditions before an
// operation on it starts (a failure stops the operation before it calls the
// provider), its postconditions once the operation has recorded the object
// it produced (a failure keeps the object, reports the operation complete,
// and stops what depends on it). An unchanged object has no operation,
// unless the plan could not evaluate some of its conditions: then a "check"
// operation evaluates them all, after what they refer to, before its
// dependents.

// instanceOf returns the configuration of op's resource and the repetition
// data (count.index, each) of op's instance.
func (a *applier) instanceOf(op Op) (*config.Resource, lang.InstanceData, diag.Diagnostics) {
	r := a.cfg.ConfigResource(op.Addr.ContainingResource().InConfig())
	if r == nil {
		return nil, lang.InstanceData{}, diag.Diagnostics{diag.Errorf("Resource not in configuration",
			"The plan creates, updates or checks %s, but the configuration has no such resource.", op.Addr)}
	}
	exp, ds := a.expansion(op.Addr.ContainingResource(), r)
	if ds.HasErrors() {
		return r, lang.InstanceData{}, ds
	}
	return r, exp.InstanceData(op.Addr.Resource.Key), ds
}

// preconditions evaluates the preconditions of the managed resource
// instance op creates or updates, recording their results; a failure is an
// error diagnostic.
func (a *applier) preconditions(op Op) diag.Diagnostics {
	r, inst, ds := a.instanceOf(op)
	if ds.HasErrors() || len(r.Preconditions) == 0 {
		return ds
	}
	scope := a.eval.Scope(op.Addr.Module, inst)
	for i, rule := range r.Preconditions {
		ds = ds.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", a.ruleAt(checks.ResourceObject(op.Addr), checks.Precondition, i)))
	}
	return ds
}

// postconditions evaluates the postconditions of r for self, the object of
// op's instance, recording their results; a failure is an error diagnostic.
func (a *applier) postconditions(op Op, r *config.Resource, inst lang.InstanceData, self cty.Value) diag.Diagnostics {
	var ds diag.Diagnostics
	if len(r.Postconditions) == 0 {
		return ds
	}
	scope := a.eval.Scope(op.Addr.Module, inst)
	scope.Self = self
	for i, rule := range r.Postconditions {
		ds = ds.Append(eval.CheckRule(scope, rule, "Resource postcondition failed", "", a.ruleAt(checks.ResourceObject(op.Addr), checks.Postcondition, i)))
	}
	return ds
}

// objectPostconditions evaluates the postconditions of op's resource for
// self, the object op produced.
func (a *applier) objectPostconditions(op Op, self cty.Value) diag.Diagnostics {
	r, inst, ds := a.instanceOf(op)
	if ds.HasErrors() {
		return ds
	}
	return a.postconditions(op, r, inst, self)
}

// checkUnchanged evaluates the conditions of an unchanged object (the
// operation of a NoOp change), its preconditions then, if they hold, its
// postconditions with the object as self.
func (a *applier) checkUnchanged(op Op, c *plan.ResourceInstanceChange) diag.Diagnostics {
	ds := a.preconditions(op)
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(a.objectPostconditions(op, c.After))
}
