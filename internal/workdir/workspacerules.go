package workdir

import (
	"fmt"
	"os"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// CheckWorkspaceSelectable reports that the selected workspace cannot be
// changed (workspace new, workspace select) while TF_WORKSPACE overrides
// the selection.
func CheckWorkspaceSelectable() diag.Diagnostics {
	if os.Getenv("TF_WORKSPACE") == "" {
		return nil
	}
	return diag.Diagnostics{diag.Errorf("Workspace overridden",
		"The selected workspace is currently overridden using the TF_WORKSPACE environment variable. To select a new workspace, either update this environment variable or unset it and then run this command again.")}
}

// CheckWorkspaceRemovable reports why workspace name cannot be deleted
// whatever the backend holds: it is the selected workspace, or the
// default one.
func (d *Dir) CheckWorkspaceRemovable(name string) diag.Diagnostics {
	switch name {
	case d.Workspace():
		return diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q is your active workspace.", name),
			"You cannot delete the currently active workspace. Please switch to another workspace and try again.")}
	case backend.DefaultWorkspace:
		return diag.Diagnostics{diag.Errorf("Can't delete the default workspace", "%s", backend.ErrDefaultWorkspace)}
	}
	return nil
}

// ReadStateFile reads the state file at path, which is not a workspace's
// (workspace new -state, show PATH).
func ReadStateFile(path string) (*state.State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return statefile.Parse(data)
}
