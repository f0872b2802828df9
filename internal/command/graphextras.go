package command

import (
	"context"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/graphview"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
)

// graphExtras returns what the pictures of p's operation graph g draw
// beside its operations: the plan's action invocations, and the
// operations that use each ephemeral resource of cfg (found with the
// providers' schemas, which are loaded only when cfg has one).
func (m *Meta) graphExtras(ctx context.Context, p *plan.Plan, g *apply.Graph, cfg *config.Module) (graphview.Extras, diag.Diagnostics) {
	x := graphview.Extras{Actions: p.ActionInvocations}
	if cfg == nil {
		return x, nil
	}
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	users, ds := planner.EphemeralUsersOf(ctx, cfg, set)
	x.Ephemerals = apply.EphemeralUses(g, users)
	return x, ds
}
