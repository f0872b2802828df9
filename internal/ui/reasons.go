package ui

import (
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
)

// ReasonsJSON converts reasons to their JSON form; nil for none.
func ReasonsJSON(rs []plan.Reason) []jsonformat.Reason {
	if len(rs) == 0 {
		return nil
	}
	out := make([]jsonformat.Reason, len(rs))
	for i, r := range rs {
		j := jsonformat.Reason{Kind: r.Kind.String(), Message: r.String(), ID: r.ID}
		for _, p := range r.Attrs {
			j.Attributes = append(j.Attributes, diag.FormatPath(p))
		}
		if r.Instance.Resource.Resource.Type != "" {
			j.Instance = r.Instance.String()
		}
		if t := r.Trigger; t != nil {
			j.Trigger = &jsonformat.Trigger{Changed: t.Ref()}
			if t.Range.Filename != "" {
				j.Trigger.Range = &jsonformat.Range{Filename: t.Range.Filename,
					Start: jsonformat.Pos{Line: t.Range.Start.Line, Column: t.Range.Start.Column, Byte: t.Range.Start.Byte},
					End:   jsonformat.Pos{Line: t.Range.End.Line, Column: t.Range.End.Column, Byte: t.Range.End.Byte}}
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
