package ui

import (
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// ReasonJSON is one entry of a resource change's "rig_reasons" in the JSON
// plan (and of `rig explain -json`): why the change does what it does.
// Kind is plan.ReasonKind's name; Message the sentence rig prints; the
// other fields are set by kind.
type ReasonJSON struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Attributes are attribute paths as messages show them ("tags[\"a\"]").
	Attributes []string `json:"attributes,omitempty"`
	// Instance is the previous address (moved) or the instance a read waits for.
	Instance string `json:"instance,omitempty"`
	// Trigger is the replace_triggered_by entry that fired.
	Trigger *TriggerJSON `json:"trigger,omitempty"`
	// ID is the import ID.
	ID string `json:"id,omitempty"`
	// Resource is the resource create_before_destroy is inherited from.
	Resource string `json:"resource,omitempty"`
	// Path is the dependency path from Resource to this resource.
	Path []string `json:"path,omitempty"`
}

// TriggerJSON is a replace_triggered_by entry in ReasonJSON.
type TriggerJSON struct {
	// Changed is the referenced instance (with the attribute the entry names).
	Changed string     `json:"changed"`
	Range   *rangeJSON `json:"range,omitempty"`
}

// ReasonsJSON converts reasons to their JSON form; nil for none.
func ReasonsJSON(rs []plan.Reason) []ReasonJSON {
	if len(rs) == 0 {
		return nil
	}
	out := make([]ReasonJSON, len(rs))
	for i, r := range rs {
		j := ReasonJSON{Kind: r.Kind.String(), Message: r.String(), ID: r.ID}
		for _, p := range r.Attrs {
			j.Attributes = append(j.Attributes, diag.FormatPath(p))
		}
		if r.Instance.Resource.Resource.Type != "" {
			j.Instance = r.Instance.String()
		}
		if t := r.Trigger; t != nil {
			j.Trigger = &TriggerJSON{Changed: t.Ref()}
			if t.Range.Filename != "" {
				j.Trigger.Range = &rangeJSON{Filename: t.Range.Filename,
					Start: posJSON{Line: t.Range.Start.Line, Column: t.Range.Start.Column, Byte: t.Range.Start.Byte},
					End:   posJSON{Line: t.Range.End.Line, Column: t.Range.End.Column, Byte: t.Range.End.Byte}}
			}
		}
		if r.Resource.Resource.Type != "" {
			j.Resource = r.Resource.String()
		}
		for _, a := range r.Path {
			j.Path = append(j.Path, a.String())
		}
		out[i] = j
	}
	return out
}
