package command

import (
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
)

// notRefreshed says, before a saved plan is applied, which objects it
// planned as recorded under -refresh=changed, as the plan said when it
// was made: a paragraph, and a refresh_skipped message in the line stream.
func (o *output) notRefreshed(p *plan.Plan) {
	if o.json != nil {
		o.json.NotRefreshed(p, p.Timestamp)
	}
	if o.human {
		ui.RenderNotRefreshed(o.m.Out, p, p.Timestamp)
	}
}
