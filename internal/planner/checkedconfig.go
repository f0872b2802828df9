package planner

import (
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// checkedConfigs holds, per loaded configuration, the diagnostics of its
// unsupported constructs and references when Validate found no errors
// among them, so that the plan that follows on the same configuration
// returns them without checking again. An entry goes when its
// configuration is collected.
var checkedConfigs sync.Map // weak.Pointer[config.Module] → diag.Diagnostics

// configChecks reports cfg's unsupported constructs and references
// (lang.CheckReferences), once per configuration when they have no
// errors.
func configChecks(cfg *config.Module) diag.Diagnostics {
	key := weak.Make(cfg)
	if ds, ok := checkedConfigs.Load(key); ok {
		return slices.Clone(ds.(diag.Diagnostics))
	}
	var ds diag.Diagnostics
	ds = ds.Append(unsupportedConstructs(cfg))
	ds = ds.Append(lang.CheckReferences(cfg))
	if !ds.HasErrors() {
		if _, loaded := checkedConfigs.LoadOrStore(key, ds); !loaded {
			runtime.AddCleanup(cfg, func(k weak.Pointer[config.Module]) { checkedConfigs.Delete(k) }, key)
		}
	}
	return slices.Clone(ds)
}
