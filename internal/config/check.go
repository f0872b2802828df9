package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/addrs"
)

// Check is a "check" block: assertions whose failures are warnings, and at
// most one scoped data source that only the assertions may refer to.
type Check struct {
	Name string
	// Asserts are the assert blocks, in file order; at least one in a
	// valid module.
	Asserts []*CheckRule
	// DataResource is the nested data block, nil when absent. It is also
	// in the module's DataResources, with Check set to this block's name.
	DataResource *Resource
	DeclRange    hcl.Range
}

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

// nestedDataSchema finds the meta-arguments a data block nested in a check
// block may not have.
var nestedDataSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
}

// decodeCheckBlock decodes a check block; the result is never nil.
func decodeCheckBlock(block *hcl.Block) (*Check, hcl.Diagnostics) {
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange}
	content, diags := block.Body.Content(checkBlockSchema)
	if !hclsyntax.ValidIdentifier(c.Name) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid check block name", Detail: badIdentifierDetail, Subject: block.LabelRanges[0].Ptr()})
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "data":
			if c.DataResource != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Multiple data resource blocks",
					Detail:   fmt.Sprintf("This check block already has a data resource defined at %s.", c.DataResource.DeclRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			nested, _, _ := b.Body.PartialContent(nestedDataSchema)
			bad := false
			for _, name := range []string{"count", "for_each"} {
				if attr, ok := nested.Attributes[name]; ok {
					bad = true
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  fmt.Sprintf("Invalid %q attribute", name),
						Detail:   `The "count" and "for_each" meta-arguments are not supported within nested data blocks.`,
						Subject:  attr.NameRange.Ptr(),
					})
				}
			}
			for _, lb := range nested.Blocks {
				bad = true
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid lifecycle block",
					Detail:   `Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.`,
					Subject:  lb.DefRange.Ptr(),
				})
			}
			r, more := decodeResourceBlock(b, addrs.Data, false)
			diags = append(diags, more...)
			if !bad && !more.HasErrors() {
				r.Check = c.Name
				c.DataResource = r
			}
		case "assert":
			cr, more := decodeCheckRuleBlock(b)
			diags = append(diags, more...)
			if !more.HasErrors() {
				c.Asserts = append(c.Asserts, cr)
			}
		}
	}
	if len(c.Asserts) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  c.DeclRange.Ptr(),
		})
	}
	return c, diags
}

// addCheck adds c and its scoped data source to m, reporting names
// declared twice.
func (m *Module) addCheck(c *Check) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if r := c.DataResource; r != nil {
		if existing, ok := m.DataResources[r.Addr]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate data %q configuration", existing.Addr.Type),
				Detail:   fmt.Sprintf("A %s data resource named %q was already declared at %s. Resource names must be unique per type in each module, including within check blocks.", existing.Addr.Type, existing.Addr.Name, existing.DeclRange),
				Subject:  r.DeclRange.Ptr(),
			})
			c.DataResource = nil
		} else {
			m.DataResources[r.Addr] = r
		}
	}
	for _, existing := range m.Checks {
		if existing.Name == c.Name {
			return append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate check %q configuration", existing.Name),
				Detail:   fmt.Sprintf("A check block named %q was already declared at %s. Check blocks must be unique within each module.", existing.Name, existing.DeclRange),
				Subject:  c.DeclRange.Ptr(),
			})
		}
	}
	m.Checks = append(m.Checks, c)
	return diags
}

// Check returns the check block named name, nil if there is none.
func (m *Module) Check(name string) *Check {
	for _, c := range m.Checks {
		if c.Name == name {
			return c
		}
	}
	return nil
}
