package command

import (
	"fmt"
	"os"

	"github.com/rig-iac/rig/internal/diag"
)

// planFileLoadError is the error for a saved plan path that could not be
// read (err), worded as OpenTofu words it: a directory is pointed to the
// global -chdir option, the way to run a configuration elsewhere.
func planFileLoadError(path string, err error) diag.Diagnostic {
	summary := fmt.Sprintf("Failed to load %q as a plan file", path)
	if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
		return diag.Errorf(summary, "The specified path is a directory, not a plan file. You can use the global -chdir flag to use this directory as the configuration root.")
	}
	return diag.Errorf(summary, "%s", err)
}

// destroyWithArgument is the error for `rig destroy PATH`: a saved plan
// is applied with apply, as OpenTofu says; anything else is not a plan.
func (m *Meta) destroyWithArgument(path string) int {
	var d diag.Diagnostic
	if _, err := m.readSavedPlan(path); err != nil {
		d = planFileLoadError(path, err)
	} else {
		d = diag.Errorf("Destroy can't be called with a plan file", "If this plan was created using plan -destroy, apply it using:\n  rig apply %q", path)
	}
	m.showDiagnostics(diag.Diagnostics{d})
	return 1
}
