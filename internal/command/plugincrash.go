package command

import (
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/provider/plugin"
	"github.com/rig-iac/rig/internal/ui"
)

// showPluginCrashes shows, after a command that failed, the panic output
// of every provider plugin that crashed during it, as Terraform and
// OpenTofu show it: the trace, then the plugin named as the one at fault.
func (m *Meta) showPluginCrashes() {
	for _, c := range plugin.TakeCrashes() {
		m.log.Error("provider plugin crashed", corelog.String("plugin", c.Plugin))
		ui.RenderPluginCrash(m.Err, c.Plugin, c.Text(), m.Color)
	}
}
