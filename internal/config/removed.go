package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
)

// Removed is a "removed" block: the objects of From (a resource or a module
// call, relative to the declaring module, without instance keys) are no
// longer in the configuration, and are forgotten (left in place, dropped
// from state) unless Destroy is set.
type Removed struct {
	From *MoveEndpoint
	// Destroy is lifecycle.destroy: delete the objects rather than forget
	// them (false when unset).
	Destroy   bool
	DeclRange hcl.Range
}

var removedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "provisioner", LabelNames: []string{"type"}}, {Type: "connection"}},
}

var removedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
}

func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	content, diags := block.Body.Content(removedBlockSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	rm := &Removed{DeclRange: block.DefRange}
	from, d := decodeMoveEndpoint(content.Attributes["from"].Expr)
	diags = append(diags, d...)
	if from != nil && from.KeyGiven {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid address",
			Detail:  fmt.Sprintf("A removed block's from must name a resource or a module call without instance keys, not %s.", from),
			Subject: from.Range.Ptr()})
	}
	if from != nil && !from.IsModule() && from.Resource.Mode != addrs.Managed {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid address",
			Detail:  "Data resources cannot be removed: a removed block names a managed resource or a module call.",
			Subject: from.Range.Ptr()})
	}
	rm.From = from
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			lc, d := b.Body.Content(removedLifecycleSchema)
			diags = append(diags, d...)
			if attr, ok := lc.Attributes["destroy"]; ok {
				diags = append(diags, decodeLiteralBool(attr.Expr, &rm.Destroy)...)
			}
		case "provisioner", "connection":
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported block type",
				Detail:  "rig does not support provisioners in removed blocks yet.",
				Subject: b.DefRange.Ptr()})
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return rm, diags
}
