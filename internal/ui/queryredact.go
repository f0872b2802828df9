package ui

import (
	"encoding/json"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
)

// redactedFields is objectFields for a value of block's type that may hold
// secrets: each value that is sensitive — marked so, or an attribute block
// declares sensitive — is written as null, and its path is returned in
// Terraform's notation (".password"), sorted, for the message's
// sensitive_attribute_paths. block may be nil.
func redactedFields(v cty.Value, block *provider.Block) (map[string]json.RawMessage, []string) {
	if v == cty.NilVal || v.IsNull() || !v.Type().IsObjectType() {
		return nil, nil
	}
	if block != nil {
		v = block.MarkSensitive(v)
	}
	v, pvms := v.UnmarkDeepWithPaths()
	var hidden []cty.Path
	var paths []string
	for _, pvm := range pvms {
		for m := range pvm.Marks {
			if marks.IsSensitive(m) {
				hidden = append(hidden, pvm.Path)
				paths = append(paths, diag.FormatRelativePath(pvm.Path))
				break
			}
		}
	}
	if len(hidden) > 0 {
		v, _ = cty.Transform(v, func(p cty.Path, av cty.Value) (cty.Value, error) {
			for _, h := range hidden {
				if p.Equals(h) {
					return cty.NullVal(av.Type()), nil
				}
			}
			return av, nil
		})
	}
	slices.Sort(paths)
	return objectFields(v), slices.Compact(paths)
}
