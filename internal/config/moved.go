package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
)

// Moved is a "moved" block: the objects at From, an address relative to
// the module that declares the block, now belong at To.
type Moved struct {
	From, To  *MoveEndpoint
	DeclRange hcl.Range
}

// MoveEndpoint is one side of a moved block, relative to its module: a
// module call (Module set, Resource zero), a resource (Key not given) or a
// resource instance.
type MoveEndpoint struct {
	// Module is the path of module calls before the resource, or the
	// module itself: module.a[0].module.b.
	Module   addrs.ModuleInstance
	Resource addrs.Resource
	Key      addrs.InstanceKey
	KeyGiven bool
	Range    hcl.Range
}

// IsModule reports whether the endpoint names a module (instance).
func (e *MoveEndpoint) IsModule() bool { return e.Resource == (addrs.Resource{}) }

// String returns the endpoint as written.
func (e *MoveEndpoint) String() string {
	if e.IsModule() {
		return string(e.Module)
	}
	ri := e.Resource.Instance(e.Key).Absolute(e.Module)
	if !e.KeyGiven {
		return ri.ContainingResource().String()
	}
	return ri.String()
}

var movedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}},
}

func decodeMovedBlock(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedBlockSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	mv := &Moved{DeclRange: block.DefRange}
	for _, side := range []struct {
		name string
		into **MoveEndpoint
	}{{"from", &mv.From}, {"to", &mv.To}} {
		attr := content.Attributes[side.name]
		e, d := decodeMoveEndpoint(attr.Expr)
		diags = append(diags, d...)
		*side.into = e
	}
	if diags.HasErrors() {
		return nil, diags
	}
	from, to := mv.From, mv.To
	if !from.IsModule() && !to.IsModule() && from.KeyGiven != to.KeyGiven {
		// A whole resource on one side and an instance on the other: the
		// resource stands for its instance without a key (a → b[0] moves a
		// single-instance resource into b's count), as in OpenTofu.
		from.KeyGiven, to.KeyGiven = true, true
	}
	switch {
	case from.IsModule() != to.IsModule():
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid \"moved\" addresses",
			Detail:  fmt.Sprintf("Cannot move %s to %s: the source and the destination must both be modules, or both resources or resource instances.", from, to),
			Subject: mv.DeclRange.Ptr()})
	case !from.IsModule() && from.Resource.Mode != to.Resource.Mode:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid \"moved\" addresses",
			Detail:  fmt.Sprintf("Cannot move %s to %s: a managed resource cannot become a data resource, nor a data resource a managed one.", from, to),
			Subject: mv.DeclRange.Ptr()})
	case !from.IsModule() && from.Resource.Type != to.Resource.Type && from.Resource.Mode != addrs.Managed:
		// Managed resources may move to another type (Terraform 1.8,
		// OpenTofu 1.8): the provider converts the object.
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Resource type mismatch",
			Detail:  fmt.Sprintf("This statement declares a move from %s to %s, which is a resource of a different type.", from, to),
			Subject: mv.DeclRange.Ptr()})
	case from.String() == to.String():
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Redundant move statement",
			Detail:  fmt.Sprintf("This statement declares a move from %s to the same address, which is the same as not declaring this move at all.", from),
			Subject: mv.DeclRange.Ptr()})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return mv, diags
}

func decodeMoveEndpoint(expr hcl.Expression) (*MoveEndpoint, hcl.Diagnostics) {
	invalid := func(detail string) (*MoveEndpoint, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid address", Detail: detail, Subject: expr.Range().Ptr()}}
	}
	trav, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		return invalid("A moved block's from and to must be the address of a module call, a resource or a resource instance, written without quotes.")
	}
	e := &MoveEndpoint{Range: expr.Range()}
	mi, rest, err := addrs.ParseModuleInstancePrefix(trav)
	if err != nil {
		return invalid(fmt.Sprintf("Invalid module address: %s.", err))
	}
	e.Module = mi
	if len(rest) == 0 {
		if e.Module.IsRoot() {
			return invalid("A moved block's from and to must each name a module call, a resource or a resource instance.")
		}
		return e, nil
	}
	ri, err := addrs.ParseAbsResourceInstance(rest)
	if err != nil || !ri.Module.IsRoot() {
		return invalid(fmt.Sprintf("Invalid resource address: %v.", err))
	}
	e.Resource, e.Key = ri.Resource.Resource, ri.Resource.Key
	_, e.KeyGiven = rest[len(rest)-1].(hcl.TraverseIndex)
	return e, nil
}
