package lang

import (
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestBodyCacheLetsGo: the reference cache answers for a body while it is
// in use, and drops its entry once nothing else holds the body, rather than
// keeping a configuration's syntax trees alive.
func TestBodyCacheLetsGo(t *testing.T) {
	spec := hcldec.ObjectSpec{"a": &hcldec.AttrSpec{Name: "a", Type: cty.String}}
	entries := func() int {
		n := 0
		bodyEntries.Range(func(_, v any) bool {
			e := v.(*bodyEntry)
			e.mu.Lock()
			defer e.mu.Unlock()
			for _, sr := range e.bySpec {
				if sr.spec == reflect.ValueOf(spec).Pointer() {
					n++
				}
			}
			return true
		})
		return n
	}
	func() {
		f, ds := hclsyntax.ParseConfig([]byte(`a = var.x`), "t.tf", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		refs, _, _ := cachedBodyReferences(f.Body, spec)
		if len(refs) != 1 || refs[0].Name != "x" {
			t.Fatalf("references = %+v, want var.x", refs)
		}
		again, _, _ := cachedBodyReferences(f.Body, spec)
		if again[0] != refs[0] {
			t.Fatal("the second lookup was not served from the cache")
		}
		if entries() != 1 {
			t.Fatalf("%d cache entries for the body, want 1", entries())
		}
		runtime.KeepAlive(f)
	}()
	// The cleanup runs on the runtime's own goroutine, late on a busy
	// machine: the minute only bounds a cache that never lets go.
	for deadline := time.Now().Add(time.Minute); entries() > 0; {
		if time.Now().After(deadline) {
			t.Fatal("the cache still holds the entry of a body nothing else uses")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
