package command

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/timeline"
	"github.com/rig-iac/rig/internal/ui"
)

// showApplyReport prints the report of an apply or destroy that failed or
// was interrupted: after its diagnostics for people, as one
// "apply_report" message in the JSON stream.
func (m *Meta) showApplyReport(out *ui.OperationView, r *timeline.Record) {
	rep := r.Report()
	if out.JSON != nil {
		out.JSON.Message(strings.SplitN(rep.Text(), "\n", 2)[0], "apply_report", map[string]any{"report": rep})
	}
	if out.Human {
		fmt.Fprint(m.Out, "\n"+rep.Text())
	}
}

// showLastApply is "rig show -last-apply": the report of the last apply
// or destroy recorded in this working directory, as text or (-json) the
// report's JSON.
func (m *Meta) showLastApply(jsonOut bool) int {
	r, ok, err := m.dir().LoadTimeline()
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the last apply", "%s", err)})
		return 1
	}
	if !ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("No apply recorded",
			"No apply or destroy has run an operation in this working directory (rig keeps the last one's record in %s).", m.dir().TimelinePath())})
		return 1
	}
	rep := r.Report()
	if jsonOut {
		b, err := json.Marshal(rep)
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode the report", "%s", err)})
			return 1
		}
		fmt.Fprintln(m.Out, string(b))
		return 0
	}
	fmt.Fprintf(m.Out, "The last %s finished %s.\n\n%s", r.Command, r.Finished.Local().Format("2006-01-02 15:04:05"), rep.Text())
	return 0
}
