package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// TraversalPath converts a relative traversal (attr, attr["k"], attr[0]),
// as ignore_changes and replace_triggered_by write them, to a cty.Path. It
// returns nil for a traversal with any other step.
func TraversalPath(trav hcl.Traversal) cty.Path {
	var path cty.Path
	for _, t := range trav {
		switch t := t.(type) {
		case hcl.TraverseRoot:
			path = path.GetAttr(t.Name)
		case hcl.TraverseAttr:
			path = path.GetAttr(t.Name)
		case hcl.TraverseIndex:
			path = path.Index(t.Key)
		default:
			return nil
		}
	}
	return path
}
