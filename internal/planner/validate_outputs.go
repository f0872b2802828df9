package planner

import (
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// validateOutputs checks the outputs of every module of the tree with the
// values validation knows (validationData), as OpenTofu's validate walk
// does: what their expressions and types refuse (an attribute a
// resource's schema lacks, before evaluating), an output not declared
// ephemeral may not hold an ephemeral value, and a root output not
// declared sensitive may not hold a sensitive one (of a sensitive
// variable, or a sensitive attribute of a resource).
func validateOutputs(cfg *config.Module, schemas map[addrs.ConfigResource]provider.Schema, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		scope.Data.(*validationData).schemas = schemas
		root := len(m.Path) == 0
		for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
			o := m.Outputs[name]
			if o.Expr == nil {
				continue
			}
			refs, _ := lang.ReferencesInExpr(o.Expr)
			if more := attributeReferenceErrors(m, schemas, refs); more.HasErrors() {
				// Not evaluated: the value would only repeat the error.
				ds = ds.Append(more)
				continue
			}
			val, more := eval.EvalOutput(scope, o)
			if !more.HasErrors() {
				var eds diag.Diagnostics
				val, eds = eval.EphemeralOutput(o, root, val)
				more = more.Append(eds)
			}
			ds = ds.Append(more)
			if !more.HasErrors() && root && !o.Sensitive && marks.Contains(val) {
				ds = ds.Append(sensitiveRootOutput(o))
			}
		}
	}
	// In the order of the configuration, as OpenTofu reports them.
	return diag.SortBySource(ds)
}

// sensitiveRootOutput is the error for root output o, not declared
// sensitive, whose value is, in OpenTofu's words.
func sensitiveRootOutput(o *config.Output) diag.Diagnostic {
	return diag.At(o.DeclRange, "Output refers to sensitive values",
		"To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, rig requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")
}

// unknownResourceValue is the value validation gives a resource of
// schema b without count or for_each, as OpenTofu's validate walk does: an
// object whose attributes are all unknown, those b declares sensitive
// marked so, for a root output to be checked against. Without sensitive
// attributes it is wholly unknown.
func unknownResourceValue(b *provider.Block) cty.Value {
	if b == nil || !b.ContainsSensitive() {
		return cty.DynamicVal
	}
	ty := b.ImpliedType()
	if !ty.IsObjectType() {
		return cty.DynamicVal
	}
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, at := range ty.AttributeTypes() {
		attrs[name] = cty.UnknownVal(at)
	}
	v := cty.ObjectVal(attrs)
	return marks.MarkPaths(v, b.SensitivePaths(v))
}
