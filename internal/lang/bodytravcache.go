package lang

import (
	"runtime"
	"sync"
	"weak"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

var travCache sync.Map // weak.Pointer[hclsyntax.Body] → []hcl.Traversal

// cachedBodyTraversals is bodyTraversals remembered per native-syntax body:
// the check of a configuration's references and the evaluation of a body of
// arguments only (whose references are the same traversals) share one walk
// of its expressions. The returned slice is shared: callers must not modify
// it. The body is held weakly, as in bodyCache.
func cachedBodyTraversals(body hcl.Body) []hcl.Traversal {
	syn, ok := body.(*hclsyntax.Body)
	if !ok {
		return bodyTraversals(body)
	}
	key := weak.Make(syn)
	if v, ok := travCache.Load(key); ok {
		return v.([]hcl.Traversal)
	}
	travs := bodyTraversals(body)
	travs = travs[:len(travs):len(travs)]
	countCacheEntry()
	if _, loaded := travCache.LoadOrStore(key, travs); !loaded {
		runtime.AddCleanup(syn, func(k weak.Pointer[hclsyntax.Body]) { travCache.Delete(k) }, key)
	}
	return travs
}

// countCacheEntry counts an entry added to one of the caches of references,
// and starts them all over past refCacheLimit.
func countCacheEntry() {
	if refCacheSize.Add(1) > refCacheLimit {
		refCache.Clear()
		bodyCache.Clear()
		travCache.Clear()
		plainTemplates.Clear()
		refCacheSize.Store(1)
	}
}
