package plan

import (
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
)

// WithoutUnknownEcho returns v, a planned object of resource type typeName
// of provider p, for views: the output of the built-in terraform_data
// without its sensitive mark while it is unknown. rig marks output where
// input is sensitive (EchoedPaths), for every expression that refers to
// it; an unknown output reveals nothing, and OpenTofu shows it "(known
// after apply)" and leaves it out of the plan's sensitive values. Where
// before (the prior object, or cty.NilVal) has a sensitive output, v comes
// back unchanged, so that a diff does not say that output stops being
// sensitive: rig marks it again once it is known. Any other value comes
// back unchanged.
func WithoutUnknownEcho(p addrs.Provider, typeName string, before, v cty.Value) cty.Value {
	if !echoes(p, typeName) || !hasOutput(v) || v.IsMarked() {
		return v
	}
	if hasOutput(before) && !before.IsMarked() && marks.Contains(before.GetAttr("output")) {
		return v
	}
	out := v.GetAttr("output")
	if out.IsKnown() || !out.IsMarked() {
		return v
	}
	_, ms := out.Unmark()
	kept := cty.NewValueMarks()
	for m := range ms {
		if !marks.IsSensitive(m) {
			kept[m] = struct{}{}
		}
	}
	attrs := v.AsValueMap()
	attrs["output"] = cty.UnknownVal(out.Type()).WithMarks(kept)
	return cty.ObjectVal(attrs)
}

// hasOutput reports whether v is a known object with an output attribute.
func hasOutput(v cty.Value) bool {
	return v != cty.NilVal && !v.IsNull() && v.IsKnown() && v.Type().IsObjectType() && v.Type().HasAttribute("output")
}

// withoutNullStore returns v, a terraform_data object of type ty, and ty
// without the store attribute (storeless) when it is null, as OpenTofu
// writes such objects (it refuses an attribute its schema lacks); a store
// holding a value, which only Terraform 1.16 reads, is kept.
func withoutNullStore(v cty.Value, ty, storeless cty.Type) (cty.Value, cty.Type) {
	if v.IsNull() || !v.IsKnown() || !ty.IsObjectType() || !ty.HasAttribute("store") || !v.Type().IsObjectType() {
		return v, ty
	}
	if v.Type().HasAttribute("store") && !v.GetAttr("store").IsNull() {
		return v, ty
	}
	attrs := v.AsValueMap()
	delete(attrs, "store")
	return cty.ObjectVal(attrs), storeless
}

// storelessType returns object type ty without its store attribute.
func storelessType(ty cty.Type) cty.Type {
	if !ty.IsObjectType() {
		return ty
	}
	types := make(map[string]cty.Type, len(ty.AttributeTypes()))
	for name, t := range ty.AttributeTypes() {
		if name != "store" {
			types[name] = t
		}
	}
	return cty.Object(types)
}

// storelessTypes caches the types of the last schema block StateValue
// was given for terraform_data: the built-in provider has one.
var storelessTypes atomic.Pointer[storelessCache]

type storelessCache struct {
	blk             *provider.Block
	full, storeless cty.Type
}

// StateValue returns v, an unmarked object of resource type typeName of
// provider p, and the type to record it with in state: the schema's, but
// for the built-in terraform_data without a null store block.
func StateValue(p addrs.Provider, typeName string, sch provider.Schema, v cty.Value) (cty.Value, cty.Type) {
	if !echoes(p, typeName) {
		return v, sch.Block.ImpliedType()
	}
	c := storelessTypes.Load()
	if c == nil || c.blk != sch.Block {
		ty := sch.Block.ImpliedType()
		c = &storelessCache{blk: sch.Block, full: ty, storeless: storelessType(ty)}
		storelessTypes.Store(c)
	}
	return withoutNullStore(v, c.full, c.storeless)
}

// WithoutNullStore returns v, an unmarked object of resource type typeName
// of provider p, for the JSON views: the built-in terraform_data without
// its store attribute when that is null, as OpenTofu shows such an object
// (Terraform 1.16 shows "store": null). Any other value comes back
// unchanged.
func WithoutNullStore(p addrs.Provider, typeName string, v cty.Value) cty.Value {
	if !echoes(p, typeName) || v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	stripped, _ := withoutNullStore(v, v.Type(), storelessType(v.Type()))
	return stripped
}
