package plan

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
)

// WithoutUnknownEcho returns v, a planned object of resource type typeName
// of provider p, for views: the output of the built-in terraform_data
// without its sensitive mark while it is unknown. rig marks output where
// input is sensitive (EchoedPaths), for every expression that refers to
// it; an unknown output reveals nothing, and OpenTofu shows it "(known
// after apply)" and leaves it out of the plan's sensitive values. Where
// before (the prior object, or cty.NilVal) has a sensitive output, v comes
// back unchanged, so that a diff does not say that output stops being
// sensitive: rig marks it again once it is known. Any other value comes
// back unchanged.
func WithoutUnknownEcho(p addrs.Provider, typeName string, before, v cty.Value) cty.Value {
	if !echoes(p, typeName) || !hasOutput(v) || v.IsMarked() {
		return v
	}
	if hasOutput(before) && !before.IsMarked() && marks.Contains(before.GetAttr("output")) {
		return v
	}
	out := v.GetAttr("output")
	if out.IsKnown() || !out.IsMarked() {
		return v
	}
	_, ms := out.Unmark()
	kept := cty.NewValueMarks()
	for m := range ms {
		if !marks.IsSensitive(m) {
			kept[m] = struct{}{}
		}
	}
	attrs := v.AsValueMap()
	attrs["output"] = cty.UnknownVal(out.Type()).WithMarks(kept)
	return cty.ObjectVal(attrs)
}

// hasOutput reports whether v is a known object with an output attribute.
func hasOutput(v cty.Value) bool {
	return v != cty.NilVal && !v.IsNull() && v.IsKnown() && v.Type().IsObjectType() && v.Type().HasAttribute("output")
}
