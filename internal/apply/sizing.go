package apply

import "github.com/rig-iac/rig/internal/plan"

// actingChanges counts the changes of a plan that are operations or may
// be (all but no-ops and forgets): what the operation graph's maps are
// sized for, where a plan of a few changes among many unchanged objects
// should not size them for all.
func actingChanges(changes []*plan.ResourceInstanceChange) int {
	n := 0
	for _, c := range changes {
		if c.Action != plan.NoOp && c.Action != plan.Forget {
			n++
		}
	}
	return n
}
