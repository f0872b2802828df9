package apply

import "github.com/rig-iac/rig/internal/diag"

// errInterruptedAfterLast is the error of an apply interrupted once all of
// its operations had started: they finished and are recorded, but what
// follows them (outputs, check blocks, the actions requested with
// -invoke) was left undone. Its summary is that of every interrupted
// apply, which the apply report keys on.
var errInterruptedAfterLast = diag.Errorf("Operation interrupted",
	"The apply was interrupted after its last operation started: every operation finished, and the state records them all. The outputs and check blocks were not evaluated; run the apply again to bring them up to date.")
