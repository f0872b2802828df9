package lang

import (
	"testing"
	"unsafe"
	"weak"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestBodyEntryNotAnothersBody: an entry found at a body's address that
// belongs to another body (one collected, whose memory the body now uses)
// is never the body's: it is replaced, and the body's references are its
// own.
func TestBodyEntryNotAnothersBody(t *testing.T) {
	parse := func(src string) *hclsyntax.Body {
		f, ds := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		return f.Body.(*hclsyntax.Body)
	}
	spec := hcldec.ObjectSpec{"a": &hcldec.AttrSpec{Name: "a", Type: cty.String}}
	other, body := parse("a = var.other"), parse("a = var.mine")
	stale := &bodyEntry{body: weak.Make(other)}
	stale.bySpec = []specRefs{{spec: uintptr(unsafe.Pointer(&spec)), refs: cachedBody(other, spec)}}
	addr := uintptr(unsafe.Pointer(body))
	bodyEntries.Store(addr, stale)

	refs, _ := CachedReferencesInBody(body, spec)
	if len(refs) != 1 || refs[0].Name != "mine" {
		t.Fatalf("references = %+v, want var.mine", refs)
	}
	if got := cachedBodyTraversals(body); len(got) != 1 || got[0].RootName() != "var" {
		t.Fatalf("traversals = %v, want var.mine", got)
	}
	v, _ := bodyEntries.Load(addr)
	if e := v.(*bodyEntry); e == stale || e.body.Value() != body {
		t.Fatal("the other body's entry was kept at the body's address")
	}
	if e := entryOf(body); e != v.(*bodyEntry) {
		t.Fatal("the body's entry was made again")
	}
}
