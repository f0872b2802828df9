package planner

import (
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/marks"
)

// validateOutputs checks the outputs of every module of the tree with the
// values validation knows (validationData), as OpenTofu's validate walk
// does: an output not declared ephemeral may not hold an ephemeral value,
// and a root output not declared sensitive may not hold a sensitive one.
// An output whose expression does not evaluate is left to the plan.
func validateOutputs(cfg *config.Module, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		root := m.Parent == nil
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
			o := m.Outputs[name]
			if o.Expr == nil {
				continue
			}
			val, more := eval.EvalOutput(scope, o)
			if more.HasErrors() {
				continue
			}
			_, more = eval.EphemeralOutput(o, root, val)
			ds = ds.Append(more)
			if root && !o.Sensitive && marks.Contains(val) {
				ds = ds.Append(sensitiveRootOutput(o))
			}
		}
	}
	return ds
}

// sensitiveRootOutput is the error for root output o, not declared
// sensitive, whose value is, in OpenTofu's words.
func sensitiveRootOutput(o *config.Output) diag.Diagnostic {
	return diag.At(o.DeclRange, "Output refers to sensitive values",
		"To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, rig requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")
}
