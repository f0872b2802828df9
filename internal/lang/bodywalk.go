package lang

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// bodyTraversals returns every traversal in body without knowing its schema,
// for static reference checks. Inside "dynamic" blocks the iterator symbol
// is local and its traversals are left out. Attributes and blocks that the
// configuration loader took out of the body (meta-arguments) are skipped.
//
// Native-syntax bodies are walked exactly; other bodies (JSON, merged
// bodies) are read as attributes only, skipping any "dynamic" key.
func bodyTraversals(body hcl.Body) []hcl.Traversal {
	if body == nil {
		return nil
	}
	var out []hcl.Traversal
	walkBody(body, nil, func(t hcl.Traversal) { out = append(out, t) })
	return out
}

func walkBody(body hcl.Body, iterators map[string]bool, emit func(hcl.Traversal)) {
	emitExpr := func(expr hcl.Expression) {
		for _, t := range expr.Variables() {
			if !iterators[t.RootName()] {
				emit(t)
			}
		}
	}

	// JustAttributes leaves out hidden attributes; on a body with blocks it
	// complains but still returns the attributes, which is all we need here.
	attrs, _ := body.JustAttributes()
	syn, isSyntax := body.(*hclsyntax.Body)
	for _, name := range sortedNames(attrs) {
		if !isSyntax && name == "dynamic" {
			continue
		}
		emitExpr(attrs[name].Expr)
	}
	if !isSyntax || len(syn.Blocks) == 0 {
		return
	}

	// Ask for the visible blocks by type, which leaves out hidden ones.
	schema := &hcl.BodySchema{}
	seen := map[string]bool{}
	for _, b := range syn.Blocks {
		if seen[b.Type] {
			continue
		}
		seen[b.Type] = true
		schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: b.Type, LabelNames: make([]string, len(b.Labels))})
	}
	content, _, _ := body.PartialContent(schema)
	for _, b := range content.Blocks {
		if b.Type != "dynamic" {
			walkBody(b.Body, iterators, emit)
			continue
		}
		walkDynamic(b, iterators, emit, emitExpr)
	}
}

func walkDynamic(b *hcl.Block, iterators map[string]bool, emit func(hcl.Traversal), emitExpr func(hcl.Expression)) {
	dynContent, _, _ := b.Body.PartialContent(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "for_each"}, {Name: "iterator"}, {Name: "labels"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
	})
	iterName := ""
	if len(b.Labels) > 0 {
		iterName = b.Labels[0]
	}
	if attr, ok := dynContent.Attributes["iterator"]; ok {
		if kw := hcl.ExprAsKeyword(attr.Expr); kw != "" {
			iterName = kw
		}
	}
	if attr, ok := dynContent.Attributes["for_each"]; ok {
		emitExpr(attr.Expr)
	}
	inner := make(map[string]bool, len(iterators)+1)
	for k := range iterators {
		inner[k] = true
	}
	inner[iterName] = true
	if attr, ok := dynContent.Attributes["labels"]; ok {
		for _, t := range attr.Expr.Variables() {
			if !inner[t.RootName()] {
				emit(t)
			}
		}
	}
	for _, c := range dynContent.Blocks {
		walkBody(c.Body, inner, emit)
	}
}

func sortedNames(attrs hcl.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	// Source order keeps diagnostics in the order the user wrote things.
	sort.Slice(names, func(i, j int) bool { return attrs[names[i]].Range.Start.Byte < attrs[names[j]].Range.Start.Byte })
	return names
}
