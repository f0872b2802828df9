package ui

import (
	"bytes"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// MarshalStateInstanceJSON is what `state show -json` prints, as OpenTofu
// prints it: the stream's version message (for rig version rigVersion),
// then a state holding the current object of addr alone, in the root
// module's place for its module, in the JSON state representation.
func MarshalStateInstanceJSON(s *state.State, addr addrs.AbsResourceInstance, schemas SchemaSource, opts JSONOptions, rigVersion string) ([]byte, error) {
	one := state.New()
	one.Lineage, one.TerraformVersion = "", opts.Version
	oa := addrs.ObjectAddr{Instance: addr}
	one.SetObject(oa, s.Object(oa), s.ObjectProvider(addr))
	b, err := MarshalStateJSON(one, schemas, opts)
	if err != nil {
		return nil, err
	}
	var doc bytes.Buffer
	NewJSONView(&doc).Version(opts.Version, rigVersion)
	doc.Write(b)
	return doc.Bytes(), nil
}
