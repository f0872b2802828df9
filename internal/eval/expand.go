package eval

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// Expansion is the set of instances a resource block or module call expands to.
type Expansion struct {
	// Mode is how the block repeats: none, count or for_each.
	Mode ExpansionMode
	// Keys are the instance keys in order.
	Keys []addrs.InstanceKey
	// Each holds each.value by key, for for_each.
	Each map[string]cty.Value
}

// ExpansionMode says how a resource block or module call repeats.
type ExpansionMode uint8

const (
	// Single is a block without count or for_each.
	Single ExpansionMode = iota
	// Counted is a block with count.
	Counted
	// ForEach is a block with for_each.
	ForEach
	// Enabled is a block with lifecycle.enabled: one instance without a
	// key, or none; the whole value is null when there is none.
	Enabled
)

// ModeOf returns how a block with these count, for_each and
// lifecycle.enabled arguments repeats.
func ModeOf(count, forEach, enabled hcl.Expression) ExpansionMode {
	switch {
	case count != nil:
		return Counted
	case forEach != nil:
		return ForEach
	case enabled != nil:
		return Enabled
	}
	return Single
}

// InstanceData returns the count/each data of instance k.
func (e Expansion) InstanceData(k addrs.InstanceKey) lang.InstanceData {
	switch e.Mode {
	case Counted:
		return lang.InstanceData{CountIndex: cty.NumberIntVal(int64(k.Int()))}
	case ForEach:
		return lang.InstanceData{EachKey: cty.StringVal(k.Str()), EachValue: e.Each[k.Str()]}
	}
	return lang.InstanceData{}
}

// Has reports whether k is one of the expansion's keys.
func (e Expansion) Has(k addrs.InstanceKey) bool {
	switch e.Mode {
	case Counted:
		return k.IsInt() && k.Int() < len(e.Keys)
	case ForEach:
		if !k.IsString() {
			return false
		}
		_, ok := e.Each[k.Str()]
		return ok
	case Enabled:
		return k.IsNone() && len(e.Keys) > 0
	}
	return k.IsNone()
}

// Expand evaluates a resource's count, for_each or lifecycle.enabled.
func Expand(scope *lang.Scope, r *config.Resource) (Expansion, diag.Diagnostics) {
	return ExpandRepeated(scope, r.Count, r.ForEach, r.Enabled)
}

// ExpandCall evaluates a module call's count, for_each or lifecycle.enabled.
func ExpandCall(scope *lang.Scope, call *config.ModuleCall) (Expansion, diag.Diagnostics) {
	return ExpandRepeated(scope, call.Count, call.ForEach, call.Enabled)
}

// ExpandRepetition evaluates a count or for_each argument (at most one of
// them non-nil) into the keys of the instances they make.
func ExpandRepetition(scope *lang.Scope, count, forEach hcl.Expression) (Expansion, diag.Diagnostics) {
	return ExpandRepeated(scope, count, forEach, nil)
}

// ExpandRepeated evaluates a count, for_each or lifecycle.enabled argument
// (at most one of them non-nil) into the keys of the instances they make.
func ExpandRepeated(scope *lang.Scope, count, forEach, enabled hcl.Expression) (Expansion, diag.Diagnostics) {
	switch {
	case count == nil && forEach == nil && enabled != nil:
		on, ds := lang.EvalEnabled(scope, enabled)
		e := Expansion{Mode: Enabled}
		if on && !ds.HasErrors() {
			e.Keys = []addrs.InstanceKey{addrs.NoKey}
		}
		return e, ds
	case count != nil:
		n, ds := lang.EvalCount(scope, count)
		if ds.HasErrors() {
			return Expansion{Mode: Counted}, ds
		}
		e := Expansion{Mode: Counted, Keys: make([]addrs.InstanceKey, n)}
		for i := range n {
			e.Keys[i] = addrs.IntKey(i)
		}
		return e, ds
	case forEach != nil:
		m, ds := lang.EvalForEach(scope, forEach)
		if ds.HasErrors() {
			return Expansion{Mode: ForEach}, ds
		}
		e := Expansion{Mode: ForEach, Each: m}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e.Keys = append(e.Keys, addrs.StringKey(k))
		}
		return e, ds
	}
	return Expansion{Mode: Single, Keys: []addrs.InstanceKey{addrs.NoKey}}, nil
}

// WholeValue assembles the value of a whole resource or module call from
// its instances' values: the value itself, a tuple (count) or an object
// keyed by for_each key. A missing instance value is unknown, but that of
// a block whose lifecycle.enabled is false is null, as in OpenTofu.
func (e Expansion) WholeValue(vals map[addrs.InstanceKey]cty.Value) cty.Value {
	switch e.Mode {
	case Counted:
		elems := make([]cty.Value, len(e.Keys))
		for i, k := range e.Keys {
			v, ok := vals[k]
			if !ok {
				v = cty.DynamicVal
			}
			elems[i] = v
		}
		return cty.TupleVal(elems)
	case ForEach:
		attrs := make(map[string]cty.Value, len(e.Keys))
		for _, k := range e.Keys {
			v, ok := vals[k]
			if !ok {
				v = cty.DynamicVal
			}
			attrs[k.Str()] = v
		}
		return cty.ObjectVal(attrs)
	case Enabled:
		if len(e.Keys) == 0 {
			return cty.NullVal(cty.DynamicPseudoType)
		}
	}
	if v, ok := vals[addrs.NoKey]; ok {
		return v
	}
	return cty.DynamicVal
}
