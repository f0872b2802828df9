package command

import (
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/workdir"
)

// reportCutOffCreates is the warning of the creates an earlier run left in
// flight (nil when none), and their intents, which an apply carries over
// (workdir.Dir.OpenIntents).
func (m *Meta) reportCutOffCreates() ([]apply.Intent, diag.Diagnostics) {
	ins, err := m.dir().InFlightCreates()
	if err != nil {
		return nil, diag.Diagnostics{{Severity: diag.Warning, Summary: "Failed to read the creates' intents", Detail: err.Error()}}
	}
	return ins, workdir.CutOffCreatesWarning(ins)
}
