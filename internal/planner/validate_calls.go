package planner

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
)

// validateCallArguments checks the arguments of every module call as far
// as they are known without variable values, as OpenTofu's validate does:
// each against the type of the variable it sets, and, when it is wholly
// known, against that variable's validation rules. What depends on values
// only a plan knows is left to the plan.
func validateCallArguments(cfg *config.Module, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		if len(m.ModuleCalls) == 0 {
			continue
		}
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
			call, child := m.ModuleCalls[name], m.Children[name]
			if child == nil || call.Config == nil {
				continue
			}
			s := *scope
			switch {
			case call.Count != nil:
				s.Instance = lang.InstanceData{CountIndex: cty.UnknownVal(cty.Number)}
			case call.ForEach != nil:
				s.Instance = lang.InstanceData{EachKey: cty.UnknownVal(cty.String), EachValue: cty.DynamicVal}
			}
			// Errors of the arguments themselves (a block among them) are
			// reported by the reference checks.
			attrs, _ := call.Config.JustAttributes()
			for _, vname := range slices.Sorted(maps.Keys(attrs)) {
				v := child.Variables[vname]
				if v == nil {
					continue
				}
				ds = ds.Append(validateCallArgument(ev, &s, child, v, attrs[vname]))
			}
		}
	}
	return ds
}

// validateCallArgument checks the value argument attr gives variable v of
// module child.
func validateCallArgument(ev *eval.Evaluator, scope *lang.Scope, child *config.Module, v *config.Variable, attr *hcl.Attribute) diag.Diagnostics {
	val, ds := scope.EvalExpr(attr.Expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		// Reported by the body and reference checks, or by the plan.
		return nil
	}
	val, ds = eval.PrepareVariable(v, val, attr.Expr.Range(), string(child.Path)+".var."+v.Name)
	if ds.HasErrors() || !val.IsWhollyKnown() || len(v.Validations) == 0 {
		return ds.Errors()
	}
	val, _ = eval.EphemeralVariable(v, val, attr.Expr.Range())
	if v.Sensitive {
		val = val.Mark(lang.Sensitive)
	}
	rules := *validationScope(child, ev.FunctionsOf(child), ev.Cwd)
	rules.Data = knownVariable{Data: rules.Data, name: v.Name, val: val}
	var out diag.Diagnostics
	for _, rule := range v.Validations {
		more := eval.CheckRule(&rules, rule, "Invalid value for variable",
			fmt.Sprintf("\n\nThis was checked by the validation rule at %s.", rule.DeclRange.String()),
			eval.RuleAt{Type: checks.Validation}) // judged as a validation, recorded nowhere
		for _, d := range more {
			if d.Severity != diag.Error {
				// Warnings about the rule itself are the plan's to give.
				continue
			}
			if d.Summary == "Invalid value for variable" {
				// Reported where the value is given, as the plan does.
				rng := attr.Expr.Range()
				d.Subject = &rng
				out = out.Append(d)
			}
		}
	}
	return out
}

// knownVariable is validation data in which one variable has a known value.
type knownVariable struct {
	lang.Data
	name string
	val  cty.Value
}

func (d knownVariable) InputVariable(name string, rng hcl.Range) (cty.Value, diag.Diagnostics) {
	if name == d.name {
		return d.val, nil
	}
	return d.Data.InputVariable(name, rng)
}
