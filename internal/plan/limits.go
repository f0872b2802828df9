package plan

import (
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
)

// Limit caps how many provider calls for objects of one kind run at once,
// finer than the -parallelism bound, for APIs with rate limits (rig.hcl's
// limit blocks, -limit). Planning (reads and plans) and apply (operations)
// honour the same limits.
type Limit struct {
	// Name selects the objects: a resource address ("aws_instance.web"
	// or an instance "aws_instance.web[0]") when it contains a dot, else a
	// resource type when the configuration has resources of that type, else
	// a provider local name ("aws").
	Name string
	// N is the most calls for such objects running at once.
	N int
}

// LimitClasses returns, for a configuration cfg, a function giving the
// limits (indexes into limits) that the object at addr, served by
// provider configuration pc, counts against; nil when there are no limits.
func LimitClasses(cfg *config.Module, limits []Limit) func(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig) []int {
	if len(limits) == 0 {
		return nil
	}
	types := map[string]bool{}
	for _, m := range cfg.AllModules() {
		for _, r := range m.Resources() {
			types[r.Addr.Type] = true
		}
	}
	type matcher func(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig) bool
	matchers := make([]matcher, len(limits))
	for i, l := range limits {
		name := l.Name
		switch {
		case strings.Contains(name, "."):
			matchers[i] = func(addr addrs.AbsResourceInstance, _ addrs.AbsProviderConfig) bool {
				return addr.String() == name || addr.ContainingResource().String() == name
			}
		case types[name]:
			matchers[i] = func(addr addrs.AbsResourceInstance, _ addrs.AbsProviderConfig) bool {
				return addr.Resource.Resource.Type == name
			}
		default:
			p := cfg.ProviderFor(name)
			matchers[i] = func(_ addrs.AbsResourceInstance, pc addrs.AbsProviderConfig) bool { return pc.Provider == p }
		}
	}
	return func(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig) []int {
		var out []int
		for i, m := range matchers {
			if m(addr, pc) {
				out = append(out, i)
			}
		}
		return out
	}
}
