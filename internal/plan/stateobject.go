package plan

import (
	"slices"

	"github.com/rig-iac/rig/internal/addrs"

	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// NewStateObject encodes v, an object of schema sch, as rig records every
// object in state: its attributes in the schema's type (so dynamic
// attributes carry their type, as OpenTofu records them), the schema's
// version and the paths of its sensitive attributes: those the schema
// declares and those whose values are marked sensitive (from a sensitive
// expression in the configuration). The caller sets the status, private
// data, dependencies and create_before_destroy.
func NewStateObject(sch provider.Schema, v cty.Value) (*state.Object, error) {
	v, pvms := v.UnmarkDeepWithPaths()
	obj, err := state.NewObject(v, sch.Block.ImpliedType())
	if err != nil {
		return nil, err
	}
	paths := sch.Block.SensitivePaths(v)
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[lang.Sensitive]; ok && !slices.ContainsFunc(paths, pvm.Path.Equals) {
			paths = append(paths, pvm.Path)
		}
	}
	if obj.SensitiveAttributes, err = state.SensitivePathsJSON(paths); err != nil {
		return nil, err
	}
	obj.SchemaVersion = uint64(sch.Version)
	return obj, nil
}

// WithEchoedMarks returns marks (the sensitive paths of a configuration
// value) with, for the built-in terraform_data, the same paths under
// output for those under input: the resource echoes input into output, so
// what is sensitive in one is sensitive in the other.
func WithEchoedMarks(p addrs.Provider, typeName string, marks []cty.PathValueMarks) []cty.PathValueMarks {
	if !p.IsBuiltIn() || typeName != "terraform_data" {
		return marks
	}
	out := marks
	for _, m := range marks {
		if len(m.Path) == 0 {
			continue
		}
		if step, ok := m.Path[0].(cty.GetAttrStep); ok && step.Name == "input" {
			echoed := append(cty.Path{cty.GetAttrStep{Name: "output"}}, m.Path[1:]...)
			out = append(out, cty.PathValueMarks{Path: echoed, Marks: m.Marks})
		}
	}
	return out
}
