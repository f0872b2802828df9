package apply

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
)

// GateHooks observes health gates. A Hooks that implements it is told of
// each check of a new object held at its gate (counted from 1): its start,
// with the data sources read again for it, and its end (err nil when the
// object passed). Methods may be called concurrently.
type GateHooks interface {
	GateCheckStart(addr addrs.AbsResourceInstance, check int, reads []GateRead)
	GateCheckComplete(addr addrs.AbsResourceInstance, check int, err error)
}

// GateRead is a data source a health gate reads again before each check:
// every instance of Resource, or the one instance Key names when KeyGiven.
type GateRead struct {
	Resource addrs.AbsResource
	Key      addrs.InstanceKey
	KeyGiven bool
}

// String returns the address read: data.http.health, or
// data.http.health["a"] for one instance.
func (g GateRead) String() string {
	if g.KeyGiven {
		return g.Resource.Instance(g.Key).String()
	}
	return g.Resource.String()
}

// GateDataSources returns what the health gate of resource instance addr,
// whose configuration is r, reads again before each of its checks: the
// data sources its postconditions refer to, in the order they are first
// referred to.
func GateDataSources(addr addrs.AbsResourceInstance, r *config.Resource) []GateRead {
	refs := gateDataSources(Op{Addr: addr, Kind: OpCreate}, r)
	out := make([]GateRead, len(refs))
	for i, d := range refs {
		out[i] = GateRead{Resource: d.res, Key: d.key, KeyGiven: d.keyGiven}
	}
	return out
}
