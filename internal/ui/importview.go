package ui

import (
	"fmt"
	"io"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// ImportView prints the progress of `rig import` as OpenTofu does:
//
//	test_thing.a: Importing from ID "id-1"...
//	test_thing.a: Import prepared!
//	  Prepared test_thing for import
//	test_thing.a: Refreshing state... [id=id-1]
//
// and then, with Success, the closing paragraph.
type ImportView struct {
	w     io.Writer
	color bool
}

var _ plan.ImportHooks = (*ImportView)(nil)

// NewImportView returns a view printing to w.
func NewImportView(w io.Writer, opts RenderOptions) *ImportView {
	return &ImportView{w: w, color: opts.Color}
}

func (v *ImportView) println(template string, args ...any) {
	_, _ = io.WriteString(v.w, fmt.Sprintf(colorize(template, v.color), args...)+"\n")
}

// PreImport prints "ADDR: Importing from ID "ID"...".
func (v *ImportView) PreImport(addr addrs.AbsResourceInstance, id string) {
	v.println("[reset][bold]%s: Importing from ID %q...", addr, id)
}

// PostImport prints "ADDR: Import prepared!" and a line per object.
func (v *ImportView) PostImport(addr addrs.AbsResourceInstance, imported []provider.ImportedObject) {
	v.println("[reset][bold][green]%s: Import prepared!", addr)
	for _, obj := range imported {
		v.println("[reset][green]  Prepared %s for import", obj.TypeName)
	}
}

// PreRefresh prints "ADDR: Refreshing state... [id=ID]".
func (v *ImportView) PreRefresh(addr addrs.AbsResourceInstance, prior cty.Value) {
	v.println("[reset][bold]%s: Refreshing state...%s", addr, idSuffix(objectID(prior)))
}

// Success prints the paragraph that ends a successful import.
func (v *ImportView) Success() {
	v.println("\n[reset][green]Import successful!\n\n" +
		"The resources that were imported are shown above. These resources are now in\n" +
		"your rig state and will henceforth be managed by rig.\n")
}

// objectID returns the id attribute of an object, "" when it has no known
// string id.
func objectID(v cty.Value) string {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || v.IsMarked() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return ""
	}
	id := v.GetAttr("id")
	if id.IsNull() || !id.IsKnown() || !id.Type().Equals(cty.String) || id.IsMarked() {
		// A sensitive id is not shown.
		return ""
	}
	return id.AsString()
}
