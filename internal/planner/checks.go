package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
)

// checkInstance names a check block in one module instance.
type checkInstance struct {
	module string // addrs.ModuleInstance.String()
	name   string
}

// planCheck evaluates the assertions of check block c in module instance
// mi, once everything they refer to is planned. Failures are warnings
// (eval.CheckAssert), as are results that are known only after apply; a
// check whose scoped data source could not be read is not evaluated, its
// failure already reported.
func (p *planner) planCheck(c *config.Check, mi addrs.ModuleInstance) diag.Diagnostics {
	p.mu.Lock()
	failed := p.checkFailed[checkInstance{module: mi.String(), name: c.Name}]
	p.mu.Unlock()
	if failed {
		return nil
	}
	return EvalCheck(p.eval, c, mi, p.checks)
}

// EvalCheck evaluates the assertions of check block c in module instance
// mi with the values ev knows, recording the results in results; plan and
// apply share it.
func EvalCheck(ev *eval.Evaluator, c *config.Check, mi addrs.ModuleInstance, results *checks.State) diag.Diagnostics {
	var ds diag.Diagnostics
	scope := ev.Scope(mi, lang.InstanceData{})
	obj := checks.NamedObject(checks.CheckKind, mi, c.Name)
	for i, a := range c.Asserts {
		ds = ds.Append(eval.CheckAssert(scope, a, eval.RuleAt{Checks: results, Object: obj, Type: checks.Assertion, Index: i}))
	}
	return ds
}

// ruleAt names condition index of type t of obj for recording its result
// in the plan's check results.
func (p *planner) ruleAt(obj checks.Object, t checks.RuleType, index int) eval.RuleAt {
	return eval.RuleAt{Checks: p.checks, Object: obj, Type: t, Index: index}
}

// expandChecks records the instances of resource addr, if it has
// conditions, for the plan's check results.
func (p *planner) expandChecks(addr addrs.AbsResource, keys []addrs.InstanceKey) {
	if p.checks == nil {
		return
	}
	objs := make([]checks.Object, len(keys))
	for i, k := range keys {
		objs[i] = checks.ResourceObject(addr.Instance(k))
	}
	p.checks.ExpandIn(addr.Module, checks.Config{Kind: checks.ResourceKind, Module: addr.Module.Module(), Resource: addr.Resource}, objs)
}

// AsWarnings returns ds with every error made a warning: the problems of a
// check block's scoped data source never stop an operation. It modifies
// and returns ds.
func AsWarnings(ds diag.Diagnostics) diag.Diagnostics {
	for i := range ds {
		ds[i].Severity = diag.Warning
	}
	return ds
}
