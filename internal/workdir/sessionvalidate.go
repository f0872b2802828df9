package workdir

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/planner"
)

// Validate checks the session's configuration as `rig validate` does
// (planner.Validate: references, schemas, and each block handed once to
// its provider's validation call, whatever its count or for_each), with
// the session's providers. A plan, apply, destroy or refresh runs it
// before planning and stops on its errors, as OpenTofu's local operations
// do, so that a block without instances is checked too. The reference
// graph it builds is kept for that plan. What is evaluated statically (a
// provider block's for_each) uses the session's root variables.
func (s *Session) Validate(ctx context.Context) diag.Diagnostics {
	if s.Config == nil || s.Providers == nil {
		return nil
	}
	return planner.Validate(ctx, s.Config, s.Providers, planner.ValidateOptions{Env: lang.Env{Cwd: s.Cwd},
		ForPlan: true, Dependencies: s.Dependencies, Variables: s.Variables, Prior: s.State})
}
