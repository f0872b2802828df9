package plan

import (
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// NewStateObject encodes v, an object of schema sch of resource type
// typeName of provider p, as rig records every object in state: its
// attributes in the schema's type (so dynamic attributes carry their type,
// as OpenTofu records them), the schema's version and the paths of its
// sensitive attributes: those the schema declares and those whose values
// are marked sensitive (from a sensitive expression in the configuration),
// sorted (marks.SortPaths) as Terraform records them. What the built-in
// terraform_data echoes from input into output is not recorded: OpenTofu
// and Terraform do not record it, and rig marks it again when it reads the
// object (RecordedPaths). The caller sets the status, private data,
// dependencies and create_before_destroy.
func NewStateObject(p addrs.Provider, typeName string, sch provider.Schema, v cty.Value) (*state.Object, error) {
	v, marked := marks.Paths(v)
	obj, err := state.NewObject(StateValue(p, typeName, sch, v))
	if err != nil {
		return nil, err
	}
	if echoes(p, typeName) {
		marked = slices.DeleteFunc(marked, underOutput)
	}
	if obj.SensitiveAttributes, err = state.SensitivePathsJSON(marks.Union(sch.Block.SensitivePaths(v), marked)); err != nil {
		return nil, err
	}
	obj.SchemaVersion = uint64(sch.Version)
	return obj, nil
}

// ObjectValue decodes object obj of resource rs with its schema's type,
// marked as expressions and views see it: sensitive where the state
// records a sensitive value (RecordedPaths) and where the schema declares
// a sensitive attribute.
func ObjectValue(rs *state.Resource, obj *state.Object, blk *provider.Block) (cty.Value, error) {
	v, err := obj.Decode(blk.ImpliedType())
	if err != nil {
		return v, err
	}
	return MarkRecorded(blk, v, RecordedPaths(obj, rs.ProviderConfig.Provider, rs.Addr.Resource.Type)), nil
}

// MarkRecorded returns v, an object of blk's type, marked sensitive at the
// recorded paths and at the attributes blk declares sensitive.
func MarkRecorded(blk *provider.Block, v cty.Value, recorded []cty.Path) cty.Value {
	return blk.MarkSensitive(marks.MarkPaths(v, recorded))
}

// RecordedPaths returns the sensitive paths the state records for obj, an
// object of resource type typeName of provider p, with what the built-in
// terraform_data echoes (EchoedPaths). Unreadable paths count as none:
// they only decide what is shown.
func RecordedPaths(obj *state.Object, p addrs.Provider, typeName string) []cty.Path {
	return EchoedPaths(p, typeName, RecordedSensitivePaths(obj))
}

// EchoedPaths returns paths (sensitive paths of an object of resource type
// typeName of provider p) with, for the built-in terraform_data, the same
// paths under output for those under input: the resource echoes input
// into output, so what is sensitive in one is sensitive in the other.
func EchoedPaths(p addrs.Provider, typeName string, paths []cty.Path) []cty.Path {
	if !echoes(p, typeName) {
		return paths
	}
	out := paths
	for _, path := range paths {
		if echoed, ok := echo(path); ok && !slices.ContainsFunc(out, echoed.Equals) {
			out = append(out, echoed)
		}
	}
	return out
}

// WithEchoedMarks is EchoedPaths for the marks of a configuration value.
func WithEchoedMarks(p addrs.Provider, typeName string, pvms []cty.PathValueMarks) []cty.PathValueMarks {
	if !echoes(p, typeName) {
		return pvms
	}
	out := pvms
	for _, m := range pvms {
		if echoed, ok := echo(m.Path); ok {
			out = append(out, cty.PathValueMarks{Path: echoed, Marks: m.Marks})
		}
	}
	return out
}

// echoes reports whether resource type typeName of provider p is the
// built-in terraform_data, whose output echoes its input.
func echoes(p addrs.Provider, typeName string) bool {
	return p.IsBuiltIn() && typeName == "terraform_data"
}

// echo returns the path under output a path under input is echoed to.
func echo(path cty.Path) (cty.Path, bool) {
	if len(path) == 0 {
		return nil, false
	}
	if step, ok := path[0].(cty.GetAttrStep); ok && step.Name == "input" {
		return append(cty.Path{cty.GetAttrStep{Name: "output"}}, path[1:]...), true
	}
	return nil, false
}

func underOutput(path cty.Path) bool {
	if len(path) == 0 {
		return false
	}
	step, ok := path[0].(cty.GetAttrStep)
	return ok && step.Name == "output"
}

// RecordedSensitivePaths returns the sensitive attribute paths recorded for obj
// (none when they cannot be read: they only decide what is shown).
func RecordedSensitivePaths(obj *state.Object) []cty.Path {
	paths, _ := state.ParseSensitivePaths(obj.SensitiveAttributes)
	return paths
}
