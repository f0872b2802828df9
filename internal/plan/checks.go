package plan

import (
	"github.com/rig-iac/rig/internal/addrs"
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
	return EvalCheck(p.eval, c, mi)
}

// EvalCheck evaluates the assertions of check block c in module instance
// mi with the values ev knows; plan and apply share it.
func EvalCheck(ev *eval.Evaluator, c *config.Check, mi addrs.ModuleInstance) diag.Diagnostics {
	var ds diag.Diagnostics
	scope := ev.Scope(mi, lang.InstanceData{})
	for _, a := range c.Asserts {
		ds = ds.Append(eval.CheckAssert(scope, a))
	}
	return ds
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
