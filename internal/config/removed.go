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
	Destroy bool
	// Provisioners are the block's provisioners, all destroy-time, in the
	// order written; Connection is its connection block, or nil. They run
	// before each object of a resource From is destroyed.
	Provisioners []*Provisioner
	Connection   *Connection
	DeclRange    hcl.Range
}

// ProvisionedResource returns a resource holding the provisioners and
// connection of rm, for running them as a resource's own; nil when rm
// has no provisioners.
func (rm *Removed) ProvisionedResource() *Resource {
	if len(rm.Provisioners) == 0 {
		return nil
	}
	return &Resource{Addr: rm.From.Resource, Config: hcl.EmptyBody(), Managed: &ManagedLifecycle{},
		Provisioners: rm.Provisioners, Connection: rm.Connection, DeclRange: rm.DeclRange}
}

// RemovedResource returns the removed block of m's tree whose from names
// the resource addr, or nil.
func (m *Module) RemovedResource(addr addrs.ConfigResource) *Removed {
	mod := m.Descendant(addr.Module)
	if mod == nil {
		return nil
	}
	for _, rm := range mod.Removed {
		if rm.From != nil && !rm.From.IsModule() && len(rm.From.Module) == 0 && rm.From.Resource == addr.Resource {
			return rm
		}
	}
	return nil
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
		case "provisioner":
			p, d := decodeProvisionerBlock(b)
			diags = append(diags, d...)
			if p == nil {
				continue
			}
			if p.When != ProvisionerWhenDestroy {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provisioner block",
					Detail:  `A removed block's provisioners run when its objects are destroyed: each needs when = destroy.`,
					Subject: b.DefRange.Ptr()})
			}
			rm.Provisioners = append(rm.Provisioners, p)
		case "connection":
			if rm.Connection != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate connection block",
					Detail:  fmt.Sprintf("This removed block already has a connection block at %s.", rm.Connection.DeclRange),
					Subject: b.DefRange.Ptr()})
				continue
			}
			diags = append(diags, onlySelfRefs(b.Body)...)
			rm.Connection = &Connection{Config: b.Body, DeclRange: b.DefRange}
		}
	}
	if len(rm.Provisioners) > 0 && from != nil && (from.IsModule() || len(from.Module) > 0) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provisioner block",
			Detail:  "Provisioners are allowed in a removed block only when its from names a resource of this module, not a module call.",
			Subject: rm.Provisioners[0].DeclRange.Ptr()})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return rm, diags
}
