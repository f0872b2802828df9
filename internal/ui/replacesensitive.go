package ui

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/plan"
)

// replacementSensitive is the sensitive paths of a replacement's planned
// object, after, as the plan JSON's planned_values lists them: without
// those whose value is unknown. OpenTofu plans the new object of a
// replacement without marking its schema's sensitive attributes, so that
// its unknown ones are not among its planned values' sensitive values (the
// change's after_sensitive lists them); an unknown value reveals nothing.
// Any other action keeps set as it is.
func replacementSensitive(action plan.Action, after cty.Value, set pathSet) pathSet {
	if action != plan.DeleteThenCreate && action != plan.CreateThenDelete || len(set) == 0 || after == cty.NilVal || after.IsWhollyKnown() {
		return set
	}
	var unknown []string
	_ = cty.Walk(after, func(path cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() {
			unknown = append(unknown, pathKey(path))
			return false, nil
		}
		return true, nil
	})
	out := make(pathSet, len(set))
	for k := range set {
		covered := false
		for _, u := range unknown {
			if k == u || strings.HasPrefix(k, u) && (k[len(u)] == '.' || k[len(u)] == '[') {
				covered = true
				break
			}
		}
		if !covered {
			out[k] = true
		}
	}
	return out
}
