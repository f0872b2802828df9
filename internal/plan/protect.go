package plan

import (
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// ProtectedSummary is the summary of the error that refuses a plan which
// would destroy a protected object, whether the configuration or the
// state's record protects it (OpenTofu's words for the former).
const ProtectedSummary = "Resource instance cannot be destroyed"

// ProtectionSource is how the state records where a prevent_destroy was
// set: the file, relative to the working directory with forward slashes,
// and the line.
func ProtectionSource(file string, line int) string {
	return fmt.Sprintf("%s:%d", strings.ReplaceAll(file, "\\", "/"), line)
}

// Refused returns the changes whose deletion a recorded prevent_destroy
// refuses, in plan order.
func (p *Plan) Refused() []*ResourceInstanceChange {
	var out []*ResourceInstanceChange
	for _, c := range p.Changes {
		if c.RefusedBy != "" {
			out = append(out, c)
		}
	}
	return out
}

// OnlyRefusals reports whether every error of ds refuses the deletion of a
// protected object and the state's records refused at least one: the plan
// is complete and worth showing, with the refused deletions marked.
func OnlyRefusals(p *Plan, ds diag.Diagnostics) bool {
	if p == nil || len(p.Refused()) == 0 {
		return false
	}
	for _, d := range ds {
		if d.Severity == diag.Error && d.Summary != ProtectedSummary {
			return false
		}
	}
	return true
}
