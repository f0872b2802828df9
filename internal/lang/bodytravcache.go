package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// cachedBodyTraversals is bodyTraversals remembered per native-syntax body:
// the check of a configuration's references and the evaluation of a body of
// arguments only (whose references are the same traversals) share one walk
// of its expressions. The returned slice is shared: callers must not modify
// it. The body is held weakly (bodyEntry).
func cachedBodyTraversals(body hcl.Body) []hcl.Traversal {
	syn, ok := body.(*hclsyntax.Body)
	if !ok {
		return bodyTraversals(body)
	}
	return entryOf(syn).traversals(syn)
}

// traversals returns the traversals of syn, e's body, walked once.
func (e *bodyEntry) traversals(syn *hclsyntax.Body) []hcl.Traversal {
	e.travOnce.Do(func() {
		travs := bodyTraversals(syn)
		e.travs = travs[:len(travs):len(travs)]
	})
	return e.travs
}

// countCacheEntry counts an entry added to one of the caches of references,
// and starts them all over past refCacheLimit.
func countCacheEntry() {
	if refCacheSize.Add(1) > refCacheLimit {
		refCache.Clear()
		bodyEntries.Clear()
		plainTemplates.Clear()
		refCacheSize.Store(1)
	}
}
