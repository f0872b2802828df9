package provider

import (
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// UnsupportedType returns the summary and detail of the error for a
// resource type (mode addrs.Managed) or data source (addrs.Data) that the
// schemas s of provider p lack, worded as OpenTofu words them, with its
// suggestion: the other kind of block when p has the type as that kind
// ("Did you intend to use a block of type "data" …"), else the nearest
// type name of the same kind ("Did you mean …"). s may be nil.
func UnsupportedType(p addrs.Provider, s *Schemas, mode addrs.ResourceMode, typeName string) (summary, detail string) {
	var own, other map[string]Schema // the types of mode, and of the other mode
	if s != nil {
		own, other = s.ResourceTypes, s.DataSources
	}
	summary, detail = "Invalid resource type", fmt.Sprintf("The provider %s does not support resource type %q.", p.ForDisplay(), typeName)
	otherMode := addrs.Data
	if mode == addrs.Ephemeral {
		summary, detail = "Invalid ephemeral resource", fmt.Sprintf("The provider %s does not support ephemeral resource %q.", p.ForDisplay(), typeName)
		own, other = nil, nil
		if s != nil {
			own = s.EphemeralResources
		}
	}
	if mode == addrs.Data {
		summary, detail = "Invalid data source", fmt.Sprintf("The provider %s does not support data source %q.", p.ForDisplay(), typeName)
		own, other, otherMode = other, own, addrs.Managed
	}
	if sch, ok := other[typeName]; ok && sch.Block != nil {
		return summary, detail + fmt.Sprintf("\n\nDid you intend to use a block of type %q %q? If so, declare this using a block of type %q instead of one of type %q.",
			blockType(otherMode), typeName, blockType(otherMode), blockType(mode))
	}
	names := make([]string, 0, len(own))
	for name, sch := range own {
		if sch.Block != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if near := diag.Suggestion(typeName, names); near != "" {
		detail += fmt.Sprintf(" Did you mean %q?", near)
	}
	return summary, detail
}

// blockType is the keyword of a mode's blocks.
func blockType(mode addrs.ResourceMode) string {
	if mode == addrs.Data {
		return "data"
	}
	return "resource"
}
