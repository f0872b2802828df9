package planner

import (
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
)

// validateCheckMessages evaluates the error message of every assertion of
// the check blocks, every reference unknown, as OpenTofu's validate does:
// one that fails to evaluate, or is null or not a string whatever the
// configuration's values, is an error.
func validateCheckMessages(cfg *config.Module, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		if len(m.Checks) == 0 {
			continue
		}
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		for _, c := range m.Checks {
			for _, rule := range c.Asserts {
				ds = ds.Append(eval.ErrorMessageErrors(scope, rule))
			}
		}
	}
	return ds
}
