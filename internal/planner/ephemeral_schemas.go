package planner

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

// EphemeralUsersOf is EphemeralUsers with the resources' schemas from the
// providers of set; a resource whose schema cannot be had is read for the
// references outside its body alone.
func EphemeralUsersOf(ctx context.Context, cfg *config.Module, set *provider.Set) (map[addrs.ConfigResource]EphemeralUse, diag.Diagnostics) {
	return EphemeralUsers(cfg, func(m *config.Module, r *config.Resource) (*provider.Block, bool) {
		sch, ds := set.Schemas(ctx, ResolveProvider(m, r).Config.Provider)
		if ds.HasErrors() {
			return nil, false
		}
		var s provider.Schema
		switch r.Addr.Mode {
		case addrs.Managed:
			s = sch.ResourceTypes[r.Addr.Type]
		case addrs.Data:
			s = sch.DataSources[r.Addr.Type]
		case addrs.Ephemeral:
			s = sch.EphemeralResources[r.Addr.Type]
		}
		return s.Block, s.Block != nil
	})
}
