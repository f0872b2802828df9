package command

import "github.com/rig-iac/rig/internal/diag"

// The errors of an operation interrupted after its plan was made, while it
// was shown: as OpenTofu, rig never ends an interrupted operation as if it
// had completed.
var (
	// errPlanInterrupted: the plan is not saved and rig plan fails.
	errPlanInterrupted = diag.Errorf("Operation cancelled", "The plan was interrupted before it finished: it was not saved, and cannot be applied.")
	// errDriftInterrupted: the check is incomplete, whatever it found.
	errDriftInterrupted = diag.Errorf("Operation cancelled", "The drift check was interrupted before it finished: what it reports may be incomplete.")
	// errApplyInterrupted: the apply stops before it changes anything.
	errApplyInterrupted = diag.Errorf("Operation cancelled", "The apply was interrupted before it started: nothing was changed.")
)
