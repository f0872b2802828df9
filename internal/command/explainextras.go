package command

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/explain"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/ui"
)

// explainExtras returns what explaining addr needs beyond p and cfg: for
// an action, the schemas of the actions' providers (their sensitive
// attributes are redacted); otherwise what uses each ephemeral resource of
// cfg. The providers are started only for an action, or for a
// configuration that has ephemeral resources.
func (m *Meta) explainExtras(ctx context.Context, p *plan.Plan, cfg *config.Module, addr explain.Address) (explain.Extras, diag.Diagnostics) {
	var x explain.Extras
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	var ds diag.Diagnostics
	if addr.IsAction {
		schemas := ui.ProviderSchemas{}
		for _, ai := range p.ActionInvocations {
			if _, done := schemas[ai.ProviderConfig.Provider]; done {
				continue
			}
			s, more := set.Schemas(ctx, ai.ProviderConfig.Provider)
			if ds = ds.Append(more); more.HasErrors() {
				continue
			}
			schemas[ai.ProviderConfig.Provider] = s
		}
		x.Schemas = schemas
	}
	if !addr.IsAction && cfg != nil {
		users, more := planner.EphemeralUsersOf(ctx, cfg, set)
		ds = ds.Append(more)
		if users == nil {
			users = map[addrs.ConfigResource]planner.EphemeralUse{}
		}
		x.Ephemerals = users
	}
	return x, ds
}

// notExplained is the error for an address the plan has nothing of.
func notExplained(p *plan.Plan, addr explain.Address) diag.Diagnostic {
	switch {
	case addr.IsAction:
		return diag.Errorf("No such action in the plan", "The plan does not invoke %s.%s", addr, explain.DidYouMean(p, addr))
	case addr.Target.Kind != addrs.ModuleTarget && addr.Target.Resource.Mode == addrs.Ephemeral:
		return diag.Errorf("No such ephemeral resource", "The configuration declares no %s.%s", addr, explain.DidYouMean(p, addr))
	}
	return diag.Errorf("No such object in the plan", "The plan has no change for %s.%s", addr, explain.DidYouMean(p, addr))
}
