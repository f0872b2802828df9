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
	// Identity holds the attributes of the resource identity the provider
	// planned for the object (PlanResourceChange's planned identity) that
	// are known and not null, as JSON, by name; none when it planned none.
	// An object with this identity is the one the create was making.
	Identity map[string]json.RawMessage `json:"identity,omitempty"`
}

// intentOf returns the intent of creating planned (with its marks) at addr,
// with the identity the provider planned for it (cty.NilVal or null when
// none).
func intentOf(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig, sch *provider.Block, planned, identity cty.Value) Intent {
	in := Intent{Addr: addr, Address: addr.String(), Provider: pc.String(), Values: map[string]json.RawMessage{}}
	in.Identity = knownAttributes(identity, nil)
	if planned.IsNull() || !planned.IsKnown() || !planned.Type().IsObjectType() {
		return in
	}
	if values := knownAttributes(planned, sch); values != nil {
		in.Values = values
	}
	return in
}

// knownAttributes returns the top-level attributes of object v that are
// wholly known, not null, not marked and not sensitive in sch (when not
// nil), as JSON, by name; nil when there are none.
func knownAttributes(v cty.Value, sch *provider.Block) map[string]json.RawMessage {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return nil
	}
	names := make([]string, 0, len(v.Type().AttributeTypes()))
	for name := range v.Type().AttributeTypes() {
		names = append(names, name)
	}
	slices.Sort(names)
	var out map[string]json.RawMessage
	for _, name := range names {
		av := v.GetAttr(name)
		if sch != nil {
			if a := sch.Attributes[name]; a != nil && a.Sensitive {
				continue
			}
		}
		if av.ContainsMarked() || !av.IsWhollyKnown() || av.IsNull() {
			continue
		}
		b, err := ctyjson.Marshal(av, av.Type())
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]json.RawMessage{}
		}
		out[name] = b
	}
	return out
}
