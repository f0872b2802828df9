package journal

import (
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// record is one committed batch of changes: the objects set (as a partial
// version-4 state holding only them), the objects removed, and the root
// outputs when they changed. A base record's Set is a whole state, which
// replaces everything recorded before it.
type record struct {
	Base    bool            `json:"base,omitempty"`
	Set     json.RawMessage `json:"set,omitempty"`
	Removed []removedObject `json:"removed,omitempty"`
	Outputs bool            `json:"outputs,omitempty"`
}

type removedObject struct {
	Addr    string `json:"addr"`
	Deposed string `json:"deposed,omitempty"`
}

// Record encodes, as one line of JSON, the current content of the changed
// objects of s (an object absent from s is recorded as removed) and, when
// outputs is set, the root outputs. The record is appended to dst.
func Record(dst []byte, s *state.State, changed []addrs.ObjectAddr, outputs bool) ([]byte, error) {
	part := &state.State{Lineage: s.Lineage, Serial: s.Serial, TerraformVersion: s.TerraformVersion,
		Outputs: map[string]state.OutputValue{}, Resources: map[addrs.AbsResource]*state.Resource{}}
	var rec record
	for _, addr := range changed {
		obj := s.Object(addr)
		if obj == nil {
			rec.Removed = append(rec.Removed, removedObject{Addr: addr.Instance.String(), Deposed: string(addr.Deposed)})
			continue
		}
		part.SetObject(addr, obj, s.ObjectProvider(addr.Instance))
	}
	if outputs {
		rec.Outputs = true
		part.Outputs = s.Outputs
	}
	// The record is written by hand rather than through encoding/json, which
	// would validate and copy the embedded state twice over.
	start := len(dst)
	line := append(dst, '{')
	if len(part.Resources) > 0 || outputs {
		var err error
		line = append(line, `"set":`...)
		if line, err = statefile.AppendLine(line, part); err != nil {
			return dst, fmt.Errorf("journal: %w", err)
		}
	}
	if len(rec.Removed) > 0 {
		removed, err := json.Marshal(rec.Removed)
		if err != nil {
			return dst, fmt.Errorf("journal: %w", err)
		}
		if len(line) > start+1 {
			line = append(line, ',')
		}
		line = append(line, `"removed":`...)
		line = append(line, removed...)
	}
	if outputs {
		if len(line) > start+1 {
			line = append(line, ',')
		}
		line = append(line, `"outputs":true`...)
	}
	return append(line, '}'), nil
}

// Base encodes, as one line of JSON, the whole of s: replayed, it replaces
// every object, output and check result of the state it is replayed onto.
// It records the state an apply starts from when that differs from the
// snapshot the journal belongs to (a refresh found objects changed or gone).
// The record is appended to dst.
func Base(dst []byte, s *state.State) ([]byte, error) {
	start := len(dst)
	line := append(dst, `{"base":true,"set":`...)
	line, err := statefile.AppendLine(line, s)
	if err != nil {
		return dst[:start], fmt.Errorf("journal: %w", err)
	}
	return append(line, `,"outputs":true}`...), nil
}

// Replay applies records, in order, to s, the state they were recorded
// against. It stops at the first record that is not one.
func Replay(s *state.State, records [][]byte) error {
	for i, line := range records {
		var rec record
		if json.Unmarshal(line, &rec) != nil {
			return fmt.Errorf("record %d is corrupt", i+1)
		}
		if err := apply(s, rec); err != nil {
			return fmt.Errorf("record %d: %w", i+1, err)
		}
	}
	return nil
}

func apply(s *state.State, rec record) error {
	if rec.Base {
		part, err := statefile.Parse(rec.Set)
		if err != nil {
			return err
		}
		s.Resources, s.Outputs, s.CheckResults = part.Resources, part.Outputs, part.CheckResults
		return nil
	}
	for _, r := range rec.Removed {
		addr, err := addrs.ParseAbsResourceInstanceStr(r.Addr)
		if err != nil {
			return err
		}
		s.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: addrs.DeposedKey(r.Deposed)}, nil, addrs.AbsProviderConfig{})
	}
	if rec.Set != nil {
		part, err := statefile.Parse(rec.Set)
		if err != nil {
			return err
		}
		for _, oa := range part.Objects() {
			s.SetObject(oa, part.Object(oa), part.ObjectProvider(oa.Instance))
		}
		if rec.Outputs {
			s.Outputs = part.Outputs
		}
	} else if rec.Outputs {
		s.Outputs = map[string]state.OutputValue{}
	}
	return nil
}
