package plan

import (
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// NewStateObject encodes v, an object of schema sch, as rig records every
// object in state: its attributes in the schema's type (so dynamic
// attributes carry their type, as OpenTofu records them), the schema's
// version and the paths of its sensitive attributes. The caller sets the
// status, private data, dependencies and create_before_destroy.
func NewStateObject(sch provider.Schema, v cty.Value) (*state.Object, error) {
	obj, err := state.NewObject(v, sch.Block.ImpliedType())
	if err != nil {
		return nil, err
	}
	if obj.SensitiveAttributes, err = state.SensitivePathsJSON(sch.Block.SensitivePaths(v)); err != nil {
		return nil, err
	}
	obj.SchemaVersion = uint64(sch.Version)
	return obj, nil
}
