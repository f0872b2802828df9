package eval

import (
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
)

// deprecatedSchemas holds, per resource, what deprecatedSchema found: its
// schema when that declares deprecated attributes or blocks, a nil block
// when not. A typed map, unlike a sync.Map, looks a resource up without
// putting its address in an interface: every reference to a resource
// looks it up.
type deprecatedSchemas struct {
	mu sync.RWMutex
	m  map[addrs.ConfigResource]*provider.Block
}

func (d *deprecatedSchemas) load(key addrs.ConfigResource) (*provider.Block, bool) {
	d.mu.RLock()
	b, ok := d.m[key]
	d.mu.RUnlock()
	return b, ok
}

func (d *deprecatedSchemas) store(key addrs.ConfigResource, b *provider.Block) {
	d.mu.Lock()
	if d.m == nil {
		d.m = make(map[addrs.ConfigResource]*provider.Block)
	}
	d.m[key] = b
	d.mu.Unlock()
}
