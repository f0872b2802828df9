package plan

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
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
//
// The paths are recorded sorted (marks.SortPaths), as Terraform records them.
func NewStateObject(sch provider.Schema, v cty.Value) (*state.Object, error) {
	v, marked := marks.Paths(v)
	obj, err := state.NewObject(v, sch.Block.ImpliedType())
	if err != nil {
		return nil, err
	}
	if obj.SensitiveAttributes, err = state.SensitivePathsJSON(marks.Union(sch.Block.SensitivePaths(v), marked)); err != nil {
		return nil, err
	}
	obj.SchemaVersion = uint64(sch.Version)
	return obj, nil
}

// ObjectValue decodes a recorded object with its schema's type, marked as
// expressions and views see it: sensitive where the state records a
// sensitive value and where the schema declares a sensitive attribute.
func ObjectValue(obj *state.Object, blk *provider.Block) (cty.Value, error) {
	v, err := obj.Decode(blk.ImpliedType())
	if err != nil {
		return v, err
	}
	return MarkRecorded(blk, v, sensitivePaths(obj)), nil
}

// MarkRecorded returns v, an object of blk's type, marked sensitive at the
// recorded paths and at the attributes blk declares sensitive.
func MarkRecorded(blk *provider.Block, v cty.Value, recorded []cty.Path) cty.Value {
	return blk.MarkSensitive(marks.MarkPaths(v, recorded))
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
