package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// showPluginCrashes shows, after a command that failed, the panic output
// of every provider plugin that crashed during it, as Terraform and
// OpenTofu show it: the trace, then the plugin named as the one at fault.
func (m *Meta) showPluginCrashes() {
	for _, c := range plugin.TakeCrashes() {
		m.log.Error("provider plugin crashed", corelog.String("plugin", c.Plugin))
		fmt.Fprintf(m.Err, "\nStack trace from the %s plugin:\n\n%s\n\n", c.Plugin, c.Text())
		fmt.Fprint(m.Err, colorText(m.Color, "\x1b[31m\x1b[1mError:\x1b[0m\x1b[1m ", "Error: "))
		fmt.Fprintf(m.Err, "The %s plugin crashed!%s\n\n", c.Plugin, colorText(m.Color, "\x1b[0m", ""))
		fmt.Fprintf(m.Err, "A plugin that crashes has a bug: please report it to the plugin's developers\nwith the output above, which shows where it happened.\n")
	}
}
