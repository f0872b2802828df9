package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
)

// Import is an "import" block: bring the remote object ID identifies under
// management at To, a resource instance of the declaring module.
type Import struct {
	// The target: ToModule and To name the resource (in a module when
	// ToModule is set), KeyExpr the index expression when it is not a
	// literal (with for_each, such as each.key), Key the literal key
	// otherwise.
	ToModule addrs.ModuleInstance
	To       addrs.Resource
	Key      addrs.InstanceKey
	KeyExpr  hcl.Expression
	ToRange  hcl.Range
	// ID is the import ID expression; nil when Identity names the object.
	ID hcl.Expression
	// Identity is the resource identity expression (Terraform 1.12,
	// OpenTofu 1.12), an object of the resource type's identity schema;
	// nil when ID names the object. Exactly one of them is set.
	Identity hcl.Expression
	// ForEach repeats the block (OpenTofu 1.7+); nil without.
	ForEach hcl.Expression
	// Provider is the provider configuration to import with; nil for the
	// resource's own. ProviderRange is where it is set.
	Provider      *ProviderConfigRef
	ProviderRange hcl.Range
	DeclRange     hcl.Range
}

var importBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "to", Required: true}, {Name: "id"}, {Name: "identity"}, {Name: "for_each"}, {Name: "provider"}},
}

func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importBlockSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	imp := &Import{DeclRange: block.DefRange}
	idAttr, hasID := content.Attributes["id"]
	identityAttr, hasIdentity := content.Attributes["identity"]
	switch {
	case hasID && hasIdentity:
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Conflicting import arguments",
			Detail:  "Only one of 'id' or 'identity' can be set in an import block: 'id' names the object by its import ID, 'identity' by its resource identity.",
			Subject: identityAttr.Range.Ptr(), Context: hcl.RangeBetween(idAttr.Range, identityAttr.Range).Ptr()})
	case hasID:
		imp.ID = idAttr.Expr
	case hasIdentity:
		imp.Identity = identityAttr.Expr
	default:
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required import argument",
			Detail: "One of 'id' or 'identity' must be set in an import block, to name the object to import.", Subject: block.DefRange.Ptr()})
	}
	if a, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = a.Expr
	}
	if a, ok := content.Attributes["provider"]; ok {
		ref, d := decodeProviderConfigRef(a.Expr, "provider")
		diags = append(diags, d...)
		imp.Provider, imp.ProviderRange = ref, a.Range
	}
	toExpr := content.Attributes["to"].Expr
	imp.ToRange = toExpr.Range()
	invalid := func() (*Import, hcl.Diagnostics) {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import address",
			Detail: "The import block's to must be the address of a managed resource instance, such as aws_instance.web, module.net.aws_vpc.main or aws_instance.web[each.key].", Subject: imp.ToRange.Ptr()})
	}
	// A dynamic key: aws_instance.web[each.key].
	if ix, ok := toExpr.(*hclsyntax.IndexExpr); ok {
		trav, d := hcl.AbsTraversalForExpr(ix.Collection)
		if d.HasErrors() {
			return invalid()
		}
		ri, err := addrs.ParseAbsResourceInstance(trav)
		if err != nil || !ri.Resource.Key.IsNone() {
			return invalid()
		}
		imp.ToModule, imp.To, imp.KeyExpr = ri.Module, ri.Resource.Resource, ix.Key
	} else {
		trav, d := hcl.AbsTraversalForExpr(toExpr)
		if d.HasErrors() {
			return invalid()
		}
		ri, err := addrs.ParseAbsResourceInstance(trav)
		if err != nil {
			return invalid()
		}
		imp.ToModule, imp.To, imp.Key = ri.Module, ri.Resource.Resource, ri.Resource.Key
	}
	if imp.To.Mode != addrs.Managed {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import address",
			Detail: fmt.Sprintf("Only managed resources can be imported; %s is a data resource.", imp.To), Subject: imp.ToRange.Ptr()})
		return nil, diags
	}
	return imp, diags
}
