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
// changed (workspace select) while TF_WORKSPACE overrides the selection.
func CheckWorkspaceSelectable() diag.Diagnostics {
	if os.Getenv("TF_WORKSPACE") == "" {
		return nil
	}
	return diag.Diagnostics{diag.Errorf("The selected workspace is overridden using the TF_WORKSPACE environment variable",
		"To select a new workspace, either update this environment variable or unset it and then run this command again.")}
}

// CheckWorkspaceCreatable reports that workspace name cannot be created
// (workspace new) while TF_WORKSPACE names another one; creating the one
// it names is allowed, so that a pipeline may set TF_WORKSPACE first and
// create its workspace on the first run.
func CheckWorkspaceCreatable(name string) diag.Diagnostics {
	if env := os.Getenv("TF_WORKSPACE"); env == "" || env == name {
		return nil
	}
	return diag.Diagnostics{diag.Errorf("The workspace is overridden using the TF_WORKSPACE environment variable",
		"To create a new workspace, either unset this environment variable or update it to match the workspace name you are trying to create, and then run this command again.")}
}

// CheckWorkspaceEnv reports a TF_WORKSPACE that is not a workspace name
// (backend.ValidateWorkspaceName), before a command uses it.
func CheckWorkspaceEnv() diag.Diagnostics {
	env := os.Getenv("TF_WORKSPACE")
	if env == "" || backend.ValidateWorkspaceName(env) == nil {
		return nil
	}
	return diag.Diagnostics{diag.Errorf("Invalid workspace name set using TF_WORKSPACE",
		"The workspace name %q is not allowed. The name must contain only URL safe characters, and no path separators.", env)}
}

// WorkspaceOverridden reports whether TF_WORKSPACE sets the selected
// workspace.
func WorkspaceOverridden() bool { return os.Getenv("TF_WORKSPACE") != "" }

// CheckWorkspaceRemovable reports why workspace name cannot be deleted
// whatever the backend holds: it is the selected workspace, or the
// default one.
func (d *Dir) CheckWorkspaceRemovable(name string) diag.Diagnostics {
	switch name {
	case d.Workspace():
		return diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q is your active workspace", name),
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
