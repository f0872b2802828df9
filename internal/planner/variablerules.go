package planner

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
)

// A variable's validation rule may refer to resources, data sources, module
// outputs and local values (OpenTofu 1.9 and later). As OpenTofu does, such
// a rule is checked once what it refers to is planned, so that a value
// known in the plan is judged and only one known after apply is left
// unjudged; a rule that refers only to variables is checked as soon as the
// variable is known, before anything is planned.

// CheckVariableRules checks the validation rules of variable v in module
// instance mi that when selects (nil: all), recording their results in
// results. As OpenTofu does, a failure is reported where the value is
// defined: a root variable's declaration, a module call's argument.
func CheckVariableRules(ev *eval.Evaluator, mi addrs.ModuleInstance, v *config.Variable, results *checks.State, when func(*config.CheckRule) bool) diag.Diagnostics {
	var ds diag.Diagnostics
	for i, rule := range v.Validations {
		if when != nil && !when(rule) {
			continue
		}
		more := eval.CheckRule(ev.Scope(mi, lang.InstanceData{}), rule, "Invalid value for variable",
			fmt.Sprintf("\n\nThis was checked by the validation rule at %s.", rule.DeclRange.String()),
			eval.RuleAt{Checks: results, Object: checks.NamedObject(checks.VariableKind, mi, v.Name), Type: checks.Validation, Index: i})
		for i := range more {
			if more[i].Summary == "Invalid value for variable" {
				rng := v.DeclRange
				if arg, ok := ev.ArgumentRange(mi, v.Name); ok {
					rng = arg
				}
				more[i].Subject = &rng
			}
		}
		ds = ds.Append(more)
	}
	return ds
}

// AfterPlanned selects the validation rules that refer to what a plan or an
// apply computes: a resource, a module call or a local value.
func AfterPlanned(rule *config.CheckRule) bool { return refersToPlanned(rule) }

// beforeWalk selects the rules that refer to nothing the plan computes.
func beforeWalk(rule *config.CheckRule) bool { return !refersToPlanned(rule) }

// refersToPlanned reports whether rule refers to a resource, a module call
// or a local value.
func refersToPlanned(rule *config.CheckRule) bool {
	for _, expr := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
		if expr == nil {
			continue
		}
		refs, _ := lang.ReferencesInExpr(expr)
		for _, ref := range refs {
			switch ref.Kind {
			case lang.ResourceRef, lang.ModuleCallOutput, lang.LocalValue:
				return true
			}
		}
	}
	return false
}

// validateAfterWalk checks, once the walk has planned everything, the
// validation rules of every variable of every module instance that refer
// to what the plan computes.
func (p *planner) validateAfterWalk() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range p.cfg.AllModules() {
		for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
			v := m.Variables[name]
			if !slices.ContainsFunc(v.Validations, refersToPlanned) {
				continue
			}
			for _, mi := range p.eval.ModuleInstances(m.Path) {
				ds = ds.Append(p.validateVariable(mi, v, refersToPlanned))
			}
		}
	}
	return ds
}
