package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/workdir"
)

// showTimeline is "rig show -timeline=FILE": the page of the last apply
// or destroy recorded in this working directory.
func (m *Meta) showTimeline(path string) int {
	r, ok, err := m.dir().LoadTimeline()
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the timeline", "%s", err)})
		return 1
	}
	if !ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("No timeline recorded",
			"No apply or destroy that ran an operation has finished in this working directory (rig keeps the last one's timeline in %s).", m.dir().TimelinePath())})
		return 1
	}
	if err := workdir.WriteTimelinePage(path, r); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to write the timeline", "%s", err)})
		return 1
	}
	fmt.Fprintf(m.Out, "The timeline of the last %s (finished %s) is in %s.\n", r.Command, r.Finished.Local().Format("2006-01-02 15:04:05"), path)
	return 0
}
