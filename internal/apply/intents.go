package apply

import (
	"encoding/json"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// IntentLog records each create's intent durably before its provider is
// asked to create the object, and its end once the result is recorded in
// the state, so that a create cut off by a crash (the provider made the
// object, rig never learned its id) can be listed afterwards. Its methods
// are called from operation goroutines, concurrently; Begin must return
// only once the intent is durable.
type IntentLog interface {
	Begin(Intent) error
	End(addrs.AbsResourceInstance) error
}

// Intent is what a create is about to make: the instance, its provider
// configuration and the values it was planned with that identify it.
type Intent struct {
	Addr     addrs.AbsResourceInstance `json:"-"`
	Address  string                    `json:"address"`
	Provider string                    `json:"provider"`
	// Values are the planned object's top-level attributes that are known,
	// not null and not sensitive, as JSON, by name: what to look for.
	Values map[string]json.RawMessage `json:"values"`
}

// intentOf returns the intent of creating planned (with its marks) at addr.
func intentOf(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig, sch *provider.Block, planned cty.Value) Intent {
	in := Intent{Addr: addr, Address: addr.String(), Provider: pc.String(), Values: map[string]json.RawMessage{}}
	if planned.IsNull() || !planned.IsKnown() || !planned.Type().IsObjectType() {
		return in
	}
	names := make([]string, 0, len(planned.Type().AttributeTypes()))
	for name := range planned.Type().AttributeTypes() {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := planned.GetAttr(name)
		if a := sch.Attributes[name]; a != nil && a.Sensitive || v.ContainsMarked() || !v.IsWhollyKnown() || v.IsNull() {
			continue
		}
		v, _ = v.UnmarkDeep()
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			continue
		}
		in.Values[name] = b
	}
	return in
}
