package planner

import (
	"runtime"
	"sync"
	"weak"

	"github.com/rig-iac/rig/internal/config"
)

// sortedResources is a module's resource blocks sorted by address, with
// how many there were when they were sorted.
type sortedResources struct {
	n         int
	resources []*config.Resource
}

// sortedResourceMemo holds each module's sorted resource blocks: a plan
// asks for them in every pass over the configuration (the reference
// graph, validation, the providers, the checks), and a module loaded in
// full does not change. An entry goes when its module is collected.
var sortedResourceMemo sync.Map // weak.Pointer[config.Module] → sortedResources

// sortedResourcesOf returns every resource block of m sorted by address
// (sortResources), sorted once per module. The slice is shared: callers
// must not modify it. A module whose number of blocks changed since (one
// still being built) is sorted again.
func sortedResourcesOf(m *config.Module) []*config.Resource {
	n := len(m.ManagedResources) + len(m.DataResources) + len(m.EphemeralResources)
	key := weak.Make(m)
	if v, ok := sortedResourceMemo.Load(key); ok {
		if s := v.(sortedResources); s.n == n {
			return s.resources
		}
	}
	out := sortResources(m)
	out = out[:len(out):len(out)]
	if _, loaded := sortedResourceMemo.Swap(key, sortedResources{n: n, resources: out}); !loaded {
		runtime.AddCleanup(m, func(k weak.Pointer[config.Module]) { sortedResourceMemo.Delete(k) }, key)
	}
	return out
}
