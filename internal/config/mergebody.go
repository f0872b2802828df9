package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// OverriddenBody is the body of a block as an override file leaves it: the
// Base body with the arguments of Override in place of Base's arguments of
// the same name, and the nested blocks of Override in place of all of
// Base's blocks of the same type (a "dynamic" block counts as a block of its
// label's type). The contents of nested blocks are not merged.
//
// Required arguments are checked against the merged body: an argument that
// the base leaves out and the override gives is not an error. Both bodies
// are owned by the configuration and never modified.
type OverriddenBody struct {
	Base, Override hcl.Body
}

var _ hcl.Body = OverriddenBody{}

// overrideBodies returns base with override merged in; nil override leaves
// base as it is.
func overrideBodies(base, override hcl.Body) hcl.Body {
	switch {
	case override == nil:
		return base
	case base == nil:
		return override
	}
	return OverriddenBody{Base: base, Override: override}
}

// Content implements hcl.Body.
func (b OverriddenBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, remain, diags := b.PartialContent(schema)
	// Whatever the schema did not take is unsupported: asking the rest of
	// each half for no content at all makes it report its own leftovers.
	rest := remain.(OverriddenBody)
	_, more := rest.Base.Content(&hcl.BodySchema{})
	diags = append(diags, more...)
	_, more = rest.Override.Content(&hcl.BodySchema{})
	return content, append(diags, more...)
}

// PartialContent implements hcl.Body.
func (b OverriddenBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	relaxed := relaxedSchema(schema)
	baseContent, baseRemain, diags := b.Base.PartialContent(relaxed)
	overContent, overRemain, more := b.Override.PartialContent(relaxed)
	diags = append(diags, more...)

	content := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: b.MissingItemRange()}
	for name, a := range baseContent.Attributes {
		content.Attributes[name] = a
	}
	for name, a := range overContent.Attributes {
		content.Attributes[name] = a
	}
	replaced := map[string]bool{}
	for _, blk := range overContent.Blocks {
		replaced[blockKind(blk)] = true
	}
	for _, blk := range baseContent.Blocks {
		if !replaced[blockKind(blk)] {
			content.Blocks = append(content.Blocks, blk)
		}
	}
	content.Blocks = append(content.Blocks, overContent.Blocks...)

	for _, a := range schema.Attributes {
		if _, ok := content.Attributes[a.Name]; a.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", a.Name),
				Subject:  b.MissingItemRange().Ptr(),
			})
		}
	}
	return content, OverriddenBody{Base: baseRemain, Override: overRemain}, diags
}

// JustAttributes implements hcl.Body.
func (b OverriddenBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.Base.JustAttributes()
	over, more := b.Override.JustAttributes()
	diags = append(diags, more...)
	out := make(hcl.Attributes, len(attrs)+len(over))
	for name, a := range attrs {
		out[name] = a
	}
	for name, a := range over {
		out[name] = a
	}
	return out, diags
}

// MissingItemRange implements hcl.Body.
func (b OverriddenBody) MissingItemRange() hcl.Range { return b.Base.MissingItemRange() }

// blockKind is the block type a block stands for: a dynamic block's label.
func blockKind(b *hcl.Block) string {
	if b.Type == "dynamic" && len(b.Labels) > 0 {
		return b.Labels[0]
	}
	return b.Type
}

// relaxedSchema is schema with no required argument, so that each half of
// a merged body may leave out what the other gives.
func relaxedSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Attributes: make([]hcl.AttributeSchema, len(schema.Attributes)), Blocks: schema.Blocks}
	for i, a := range schema.Attributes {
		out.Attributes[i] = hcl.AttributeSchema{Name: a.Name}
	}
	return out
}
