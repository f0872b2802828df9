package apply

import (
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
)

// checkInstance names a check block in one module instance.
type checkInstance struct {
	module string // addrs.ModuleInstance.String()
	name   string
}

// markCheckFailed records that the scoped data source of check block name
// in module mi could not be read: its assertions are not evaluated.
func (a *applier) markCheckFailed(mi addrs.ModuleInstance, name string) {
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	if a.checkFailed == nil {
		a.checkFailed = map[checkInstance]bool{}
	}
	a.checkFailed[checkInstance{module: mi.String(), name: name}] = true
}

// checkVariableRules evaluates, once every operation has run, the
// validation rules of variables that refer to resources, module outputs or
// local values, in every module instance, with the values the apply
// produced, as OpenTofu checks them again once those are applied: a rule
// whose result was unknown in the plan is judged now. A failure is an
// error of the apply; the outputs are recorded still, as in OpenTofu.
func (a *applier) checkVariableRules() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range a.cfg.AllModules() {
		for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
			v := m.Variables[name]
			if !slices.ContainsFunc(v.Validations, planner.AfterPlanned) {
				continue
			}
			for _, mi := range a.eval.ModuleInstances(m.Path) {
				ds = ds.Append(planner.CheckVariableRules(a.eval, mi, v, a.checks, planner.AfterPlanned))
			}
		}
	}
	return ds
}

// checkConditions evaluates, once every operation has run, the conditions
// that stand for no resource operation: the preconditions of every module
// output (errors) and the assertions of every check block (warnings), in
// every module instance, with the values the apply produced.
//
// After a partly failed apply (part not nil), only those that do not
// depend on a failed resource are evaluated.
func (a *applier) checkConditions(part *partial) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range a.cfg.AllModules() {
		for _, mi := range a.eval.ModuleInstances(m.Path) {
			scope := a.eval.Scope(mi, lang.InstanceData{})
			for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
				if !part.outputOK(m.Path, name) {
					continue
				}
				for i, rule := range m.Outputs[name].Preconditions {
					ds = ds.Append(eval.CheckRule(scope, rule, "Module output value precondition failed", "", a.ruleAt(checks.NamedObject(checks.OutputKind, mi, name), checks.Precondition, i)))
				}
			}
			for _, c := range m.Checks {
				if !part.checkOK(m.Path, c.Name) {
					continue
				}
				a.checkMu.Lock()
				failed := a.checkFailed[checkInstance{module: mi.String(), name: c.Name}]
				a.checkMu.Unlock()
				if !failed {
					ds = ds.Append(planner.EvalCheck(a.eval, c, mi, a.checks))
				}
			}
		}
	}
	return ds
}

// ruleAt names condition index of type t of obj for recording its result
// in the apply's check results.
func (a *applier) ruleAt(obj checks.Object, t checks.RuleType, index int) eval.RuleAt {
	return eval.RuleAt{Checks: a.checks, Object: obj, Type: t, Index: index}
}
