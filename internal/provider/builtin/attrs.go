package builtin

import "github.com/zclconf/go-cty/cty"

// attrMap returns the attributes of v, a known, non-null object, by name:
// what v.AsValueMap returns, without its sorted iteration (a name slice, an
// iterator and a key value for each attribute), for objects planned and
// applied once per instance.
func attrMap(v cty.Value) map[string]cty.Value {
	atys := v.Type().AttributeTypes()
	m := make(map[string]cty.Value, len(atys))
	for name := range atys {
		m[name] = v.GetAttr(name)
	}
	return m
}
