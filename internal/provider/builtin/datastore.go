package builtin

import (
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// storeBlock is the schema of terraform_data's store block (Terraform
// 1.16): input, write-only, is kept as output (or, with sensitive,
// sensitive_output) when the object is created, when version changes, or
// (without a version) when input differs from what is kept; with
// replace, keeping a new value replaces the object.
var storeBlock = provider.Block{Attributes: map[string]*provider.Attribute{
	"input":            {Type: cty.DynamicPseudoType, Optional: true, WriteOnly: true},
	"output":           {Type: cty.DynamicPseudoType, Computed: true},
	"sensitive_output": {Type: cty.DynamicPseudoType, Computed: true, Sensitive: true},
	"version":          {Type: cty.DynamicPseudoType, Optional: true},
	"sensitive":        {Type: cty.Bool, Optional: true},
	"replace":          {Type: cty.Bool, Optional: true},
}}

// planStore plans terraform_data's store block: proposed is the proposed
// object, prior the prior one (null for a new object, or one replaced for
// its triggers_replace) and config the configuration, which alone holds
// the write-only store.input. It returns the planned store block (input
// null, a value to keep unknown until apply), whether keeping a new value
// replaces the object (store.replace), and what prevents planning.
func planStore(prior, proposed, config cty.Value) (cty.Value, bool, diag.Diagnostics) {
	store := proposed.GetAttr("store")
	if store.IsNull() || !store.IsKnown() {
		return store, false, nil
	}
	for _, name := range []string{"sensitive", "replace"} {
		if !store.GetAttr(name).IsKnown() {
			return store, false, diag.Diagnostics{{Severity: diag.Error, Summary: "Unknown store setting",
				Detail:        fmt.Sprintf("The store block's %q argument must be known when the plan is made: it decides what the plan keeps.", name),
				AttributePath: cty.GetAttrPath("store").GetAttr(name)}}
		}
	}
	input := cty.NullVal(cty.DynamicPseudoType)
	if c := config.GetAttr("store"); !c.IsNull() && c.IsKnown() {
		input = c.GetAttr("input")
	}
	attrs := attrMap(store)
	sensitive := attrs["sensitive"]
	kept := attrs["output"]
	if !attrs["sensitive_output"].IsNull() {
		kept = attrs["sensitive_output"]
	}
	priorVersion, priorSensitive := cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.Bool)
	if !prior.IsNull() {
		if ps := prior.GetAttr("store"); !ps.IsNull() {
			priorVersion, priorSensitive = ps.GetAttr("version"), ps.GetAttr("sensitive")
		}
	}
	// keep puts v in the output sensitive says.
	keep := func(v cty.Value) {
		attrs["output"], attrs["sensitive_output"] = v, cty.NullVal(cty.DynamicPseudoType)
		if sensitive.True() {
			attrs["output"], attrs["sensitive_output"] = cty.NullVal(cty.DynamicPseudoType), v
		}
	}
	if !priorSensitive.RawEquals(sensitive) {
		// The kept value moves to the other output.
		keep(kept)
	}
	version := attrs["version"]
	switch {
	case input.IsNull() && kept.IsNull():
		keep(cty.NullVal(input.Type()))
	case !version.IsNull():
		if !version.RawEquals(priorVersion) {
			keep(cty.UnknownVal(input.Type()))
		}
	case !kept.RawEquals(input):
		keep(cty.UnknownVal(input.Type()))
	}
	attrs["input"] = cty.NullVal(cty.DynamicPseudoType)
	replace := attrs["replace"].True() && (!attrs["output"].IsKnown() || !attrs["sensitive_output"].IsKnown())
	return cty.ObjectVal(attrs), replace, nil
}

// applyStore fills in the store block's unknown output or
// sensitive_output with the configuration's store.input.
func applyStore(planned, config cty.Value) cty.Value {
	if planned.IsNull() || !planned.IsKnown() {
		return planned
	}
	input := cty.NullVal(cty.DynamicPseudoType)
	if c := config.GetAttr("store"); !c.IsNull() && c.IsKnown() {
		input = c.GetAttr("input")
	}
	attrs := attrMap(planned)
	for _, name := range []string{"output", "sensitive_output"} {
		if !attrs[name].IsKnown() {
			attrs[name] = input
		}
	}
	return cty.ObjectVal(attrs)
}
