package diag

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// AttributeNote is the sentence a diagnostic about an attribute ends with
// while it has no source range: "At attribute tags["env"]."
func AttributeNote(path cty.Path) string {
	return "At attribute " + FormatPath(path) + "."
}

// InBody gives each provider diagnostic that has no source range a range
// in body (the configuration of a resource, data source or provider block)
// as OpenTofu places them: for a diagnostic about an attribute path, the
// attribute's expression, else the nested block the path reaches, else
// (an attribute left unset) the opening brace of the deepest body the path
// reaches; for a diagnostic about no attribute, the body's opening brace,
// shown on the block's header. A diagnostic so placed loses its
// AttributeNote. It modifies and returns ds.
func (ds Diagnostics) InBody(body hcl.Body) Diagnostics {
	for i := range ds {
		d := &ds[i]
		if d.Subject != nil || body == nil {
			continue
		}
		if len(d.AttributePath) == 0 {
			rng := body.MissingItemRange()
			d.Subject = &rng
			continue
		}
		rng, ok := rangeOfPath(body, d.AttributePath)
		if !ok {
			rng = body.MissingItemRange()
		}
		d.Subject = &rng
		note := AttributeNote(d.AttributePath)
		d.Detail = strings.TrimSuffix(strings.TrimSuffix(d.Detail, note), "\n\n")
	}
	return ds
}

// rangeOfPath finds where path is set in a native syntax body: an
// attribute's expression, or the deepest nested block it reaches; false
// when it reaches none.
func rangeOfPath(body hcl.Body, path cty.Path) (hcl.Range, bool) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return hcl.Range{}, false
	}
	var found hcl.Range
	ok = false
	for i := 0; i < len(path); i++ {
		step, isAttr := path[i].(cty.GetAttrStep)
		if !isAttr {
			break
		}
		if attr, exists := sb.Attributes[step.Name]; exists {
			return attr.Expr.Range(), true
		}
		var blocks []*hclsyntax.Block
		for _, b := range sb.Blocks {
			if b.Type == step.Name {
				blocks = append(blocks, b)
			}
		}
		if len(blocks) == 0 {
			break
		}
		block := blocks[0]
		if i+1 < len(path) {
			if idx, isIndex := path[i+1].(cty.IndexStep); isIndex {
				block = pickBlock(blocks, idx.Key)
				if block == nil {
					found, ok = blocks[0].DefRange(), true
					break
				}
				i++
			}
		}
		found, ok = block.DefRange(), true
		sb = block.Body
	}
	return found, ok
}

// pickBlock selects, among the blocks of one type, the one a path's index
// names: by position for a list, by label for a map; nil when none does
// (a set's elements have no position).
func pickBlock(blocks []*hclsyntax.Block, key cty.Value) *hclsyntax.Block {
	if !key.IsKnown() || key.IsNull() {
		return nil
	}
	switch key.Type() {
	case cty.Number:
		n, acc := key.AsBigFloat().Int64()
		if acc == 0 && n >= 0 && int(n) < len(blocks) {
			return blocks[n]
		}
	case cty.String:
		for _, b := range blocks {
			if len(b.Labels) > 0 && b.Labels[0] == key.AsString() {
				return b
			}
		}
	}
	return nil
}
