package provider

import (
	"github.com/zclconf/go-cty/cty"
)

// ProposedNew builds the proposed new object a provider is asked to plan
// from: the configuration's values, with every computed attribute the
// configuration leaves null taken from the prior object. A null prior (a
// create) is treated as an object whose attributes are all null, so computed
// attributes stay null for the provider to mark unknown.
func ProposedNew(b *Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = cty.NullVal(b.ImpliedType())
	}
	return proposedNewObject(b, prior, config)
}

func proposedNewObject(b *Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		cv := config.GetAttr(name)
		pv := cty.NullVal(a.ImpliedType())
		if !prior.IsNull() {
			pv = prior.GetAttr(name)
		}
		if a.Computed && cv.IsNull() {
			vals[name] = pv
		} else {
			vals[name] = cv
		}
	}
	for name, nb := range b.BlockTypes {
		cv := config.GetAttr(name)
		pv := cty.NullVal(cv.Type())
		if !prior.IsNull() {
			pv = prior.GetAttr(name)
		}
		vals[name] = proposedNewNested(nb, pv, cv)
	}
	return cty.ObjectVal(vals)
}

func proposedNewNested(nb *NestedBlock, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		return proposedNewObject(&nb.Block, prior, config)
	case NestingList:
		if config.LengthInt() == 0 {
			return config
		}
		var priorElems []cty.Value
		if !prior.IsNull() && prior.IsKnown() {
			priorElems = prior.AsValueSlice()
		}
		elems := make([]cty.Value, 0, config.LengthInt())
		for i, ce := range config.AsValueSlice() {
			pe := cty.NullVal(ce.Type())
			if i < len(priorElems) {
				pe = priorElems[i]
			}
			elems = append(elems, proposedNewObject(&nb.Block, pe, ce))
		}
		if config.Type().IsTupleType() {
			return cty.TupleVal(elems)
		}
		return cty.ListVal(elems)
	case NestingMap:
		if config.LengthInt() == 0 {
			return config
		}
		var priorElems map[string]cty.Value
		if !prior.IsNull() && prior.IsKnown() {
			priorElems = prior.AsValueMap()
		}
		elems := make(map[string]cty.Value, config.LengthInt())
		for k, ce := range config.AsValueMap() {
			pe, ok := priorElems[k]
			if !ok {
				pe = cty.NullVal(ce.Type())
			}
			elems[k] = proposedNewObject(&nb.Block, pe, ce)
		}
		if config.Type().IsObjectType() {
			return cty.ObjectVal(elems)
		}
		return cty.MapVal(elems)
	case NestingSet:
		// Set elements have no identity: each configured element is planned
		// against no prior element, except that an element equal to a prior
		// one in every configurable attribute keeps that prior element.
		if config.LengthInt() == 0 {
			return config
		}
		var priorElems []cty.Value
		if !prior.IsNull() && prior.IsKnown() {
			priorElems = prior.AsValueSlice()
		}
		elems := make([]cty.Value, 0, config.LengthInt())
		for _, ce := range config.AsValueSlice() {
			pe := cty.NullVal(ce.Type())
			for _, candidate := range priorElems {
				if sameConfigurable(&nb.Block, candidate, ce) {
					pe = candidate
					break
				}
			}
			elems = append(elems, proposedNewObject(&nb.Block, pe, ce))
		}
		return cty.SetVal(elems)
	}
	return config
}

// sameConfigurable reports whether prior and config agree on every attribute
// the configuration sets.
func sameConfigurable(b *Block, prior, config cty.Value) bool {
	if prior.IsNull() || !prior.IsKnown() || !config.IsKnown() {
		return false
	}
	for name, a := range b.Attributes {
		cv := config.GetAttr(name)
		if a.Computed && cv.IsNull() {
			continue
		}
		if !prior.GetAttr(name).RawEquals(cv) {
			return false
		}
	}
	return true
}
