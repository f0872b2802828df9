package lang

import (
	"runtime"
	"sync"
	"unsafe"
	"weak"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// bodyEntry is what the caches of references hold for one native-syntax
// body: the traversals of its expressions (cachedBodyTraversals) and what
// EvalBlock needs to know of it for each spec it is decoded with
// (cachedBody). Each body has one entry, found by its address without a
// weak.Make on every lookup (which searches the runtime's list of the
// body's memory span), and one cleanup.
type bodyEntry struct {
	body weak.Pointer[hclsyntax.Body]

	travOnce sync.Once
	travs    []hcl.Traversal

	mu     sync.Mutex
	bySpec []specRefs // usually one
}

// specRefs is a body's bodyRefs for the spec at address spec.
type specRefs struct {
	spec uintptr
	refs bodyRefs
}

// bodyEntries holds the entry of each body asked about, by its address.
// An entry is the body's while its weak pointer still points to it: a body
// collected and another allocated at its address find the old entry dead
// and replace it. The cleanup of a collected body removes its entry
// unless another body's has taken its place.
var bodyEntries sync.Map // uintptr → *bodyEntry

// entryOf returns syn's entry, added if need be.
func entryOf(syn *hclsyntax.Body) *bodyEntry {
	addr := uintptr(unsafe.Pointer(syn))
	v, ok := bodyEntries.Load(addr)
	if ok {
		if e := v.(*bodyEntry); e.body.Value() == syn {
			return e
		}
	}
	e := &bodyEntry{body: weak.Make(syn)}
	for {
		if !ok {
			if v, ok = bodyEntries.LoadOrStore(addr, e); !ok {
				break // stored
			}
		}
		if old := v.(*bodyEntry); old.body.Value() == syn {
			return old
		}
		// A dead body's entry: replace it, unless it changed meanwhile.
		if bodyEntries.CompareAndSwap(addr, v, e) {
			break
		}
		v, ok = bodyEntries.Load(addr)
	}
	countCacheEntry()
	runtime.AddCleanup(syn, func(e *bodyEntry) { bodyEntries.CompareAndDelete(addr, e) }, e)
	return e
}
