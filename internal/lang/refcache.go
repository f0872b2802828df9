package lang

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/diag"
)

type refsResult struct {
	refs  []*Reference
	diags diag.Diagnostics
}

var (
	refCache     sync.Map // hclsyntax.Expression → refsResult
	refCacheSize atomic.Int64
)

// refCacheLimit bounds the cache; past it the cache starts over, so a
// long-lived process that loads many configurations does not grow forever.
const refCacheLimit = 1 << 17

// cachedReferences is ReferencesInExpr for evaluation: the result for a
// native-syntax expression is computed once and shared, since a plan
// evaluates the same expression for every instance. The returned slices
// are shared: callers must not modify the references, and appending to the
// diagnostics copies them.
func cachedReferences(expr hcl.Expression) ([]*Reference, diag.Diagnostics) {
	key, ok := expr.(hclsyntax.Expression)
	if !ok {
		return ReferencesInExpr(expr)
	}
	if r, ok := refCache.Load(key); ok {
		res := r.(refsResult)
		// Clip so that a caller's append never writes into the shared array.
		return res.refs, res.diags[:len(res.diags):len(res.diags)]
	}
	refs, diags := ReferencesInExpr(expr)
	countCacheEntry()
	refCache.Store(key, refsResult{refs, diags})
	return refs, diags[:len(diags):len(diags)]
}

type bodyRefs struct {
	spec       hcldec.Spec // kept so that its address cannot be reused
	refs       []*Reference
	diags      diag.Diagnostics
	hasDynamic bool
	plain      *plainDecode // nil: decoded by hcldec
}

// CachedReferencesInBody is ReferencesInBody remembered per native-syntax
// body and spec, so that finding a resource's dependencies while planning
// and evaluating it later share one walk of its body. The returned slice is
// shared: callers must not modify it.
func CachedReferencesInBody(body hcl.Body, spec hcldec.Spec) ([]*Reference, diag.Diagnostics) {
	refs, diags, _ := cachedBodyReferences(body, spec)
	return refs, diags
}

// cachedBodyReferences is ReferencesInBody for evaluation, cached per
// native-syntax body and spec like cachedReferences. It also reports whether
// the body has any "dynamic" block, so that EvalBlock can skip expansion.
func cachedBodyReferences(body hcl.Body, spec hcldec.Spec) (refs []*Reference, diags diag.Diagnostics, hasDynamic bool) {
	res := cachedBody(body, spec)
	return res.refs, res.diags, res.hasDynamic
}

// cachedBody is what EvalBlock needs to know of a body before evaluating
// it, cached per native-syntax body and spec: its references, whether it
// has "dynamic" blocks, and whether it can be decoded without hcldec
// (plainDecode). The diagnostics are clipped: appending to them copies.
func cachedBody(body hcl.Body, spec hcldec.Spec) bodyRefs {
	syn, ok := body.(*hclsyntax.Body)
	rv := reflect.ValueOf(spec)
	if !ok || !rv.IsValid() || (rv.Kind() != reflect.Map && rv.Kind() != reflect.Pointer) {
		refs, diags := ReferencesInBody(body, spec)
		return bodyRefs{spec: spec, refs: refs, diags: diags, hasDynamic: true}
	}
	e := entryOf(syn)
	specAddr := rv.Pointer()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, sr := range e.bySpec {
		if sr.spec == specAddr {
			res := sr.refs
			res.diags = res.diags[:len(res.diags):len(res.diags)]
			return res
		}
	}
	res := bodyRefs{spec: spec, hasDynamic: hasDynamicBlock(syn)}
	if !res.hasDynamic {
		res.plain = newPlainDecode(syn, spec)
	}
	if res.plain != nil {
		// Every argument the body sets is one of the spec's, and it has
		// no visible block: its references are those the check of the
		// configuration found.
		res.refs, res.diags = References(e.traversals(syn))
	} else {
		res.refs, res.diags = ReferencesInBody(body, spec)
	}
	e.bySpec = append(e.bySpec, specRefs{spec: specAddr, refs: res})
	res.diags = res.diags[:len(res.diags):len(res.diags)]
	return res
}

func hasDynamicBlock(b *hclsyntax.Body) bool {
	for _, blk := range b.Blocks {
		if blk.Type == "dynamic" || hasDynamicBlock(blk.Body) {
			return true
		}
	}
	return false
}
