package workdir

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
)

// CreateWorkspace writes an empty state (serial 1, a new lineage) to a new
// workspace of b, as Terraform's pg backend does, so that the workspace
// exists for Terraform and OpenTofu too; or the state initial (its lineage
// and serial kept) when not nil, as `workspace new -state=PATH` creates it.
func (d *Dir) CreateWorkspace(ctx context.Context, b backend.Backend, name string, lock LockOptions, initial *state.State) diag.Diagnostics {
	store, err := b.Store(ctx, name)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to create workspace", "%s", err)}
	}
	if lock.Lock {
		unlock, ds := d.LockState(ctx, store, "OperationTypeInvalid", lock.Timeout)
		if ds.HasErrors() {
			return ds
		}
		defer unlock()
	}
	s := initial
	if s == nil {
		s = state.New()
		s.Serial = 1
		s.TerraformVersion = version.Terraform
	}
	data, err := statefile.Marshal(s)
	if err == nil {
		err = store.Write(ctx, data)
	}
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to create workspace", "%s", err)}
	}
	return nil
}

// DeleteWorkspace deletes workspace name of b. Unless force, a workspace
// whose state still tracks resources is kept, the error listing them, and
// so is one whose state cannot be read. The lock (unless lock says not
// to) is released just before the deletion, as Terraform does: a backend
// may not be able to remove a workspace while it is locked.
func (d *Dir) DeleteWorkspace(ctx context.Context, b backend.Backend, name string, force bool, lock LockOptions) diag.Diagnostics {
	store, err := b.Store(ctx, name)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to open state", "%s", err)}
	}
	unlock := func() {}
	if lock.Lock {
		u, ds := d.LockState(ctx, store, "OperationTypeInvalid", lock.Timeout)
		if ds.HasErrors() {
			return ds
		}
		unlock = u
	}
	s, ds := ReadState(ctx, store)
	if ds.HasErrors() && !force {
		unlock()
		return ds
	}
	if s != nil && len(s.Resources) > 0 && !force {
		unlock()
		detail := fmt.Sprintf("Workspace %q is currently tracking the following resource instances:\n", name)
		seen := map[string]bool{}
		for _, o := range s.Objects() {
			if addr := o.Instance.String(); !seen[addr] {
				seen[addr] = true
				detail += "  - " + addr + "\n"
			}
		}
		detail += "\nDeleting this workspace would cause rig to lose track of any associated remote objects, which would then require you to delete them manually outside of rig. You should destroy these objects with rig before deleting the workspace.\n\nIf you want to delete this workspace anyway, and have rig forget about these managed objects, use the -force option to disable this safety check."
		return diag.Diagnostics{diag.Errorf("Workspace is not empty", "%s", detail)}
	}
	// Release the lock just before deleting, as Terraform does: a backend
	// may not be able to remove a workspace while it is locked.
	unlock()
	if err := b.DeleteWorkspace(ctx, name); err != nil && !errors.Is(err, backend.ErrWorkspaceNotFound) {
		return diag.Diagnostics{diag.Errorf("Failed to delete workspace", "%s", err)}
	}
	return nil
}

// workspaceExists reports whether b has workspace name.
func workspaceExists(ctx context.Context, b backend.Backend, name string) (bool, diag.Diagnostics) {
	names, err := b.Workspaces(ctx)
	if err != nil {
		return false, diag.Diagnostics{diag.Errorf("Failed to list workspaces", "%s", err)}
	}
	return slices.Contains(names, name), nil
}

// NewWorkspace creates workspace name of b (CreateWorkspace), which must
// not exist yet, and selects it.
func (d *Dir) NewWorkspace(ctx context.Context, b backend.Backend, name string, lock LockOptions, initial *state.State) diag.Diagnostics {
	exists, ds := workspaceExists(ctx, b, name)
	switch {
	case ds.HasErrors():
		return ds
	case exists:
		return diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q already exists", name), "A workspace having the given name already exists")}
	}
	if ds := d.CreateWorkspace(ctx, b, name, lock, initial); ds.HasErrors() {
		return ds
	}
	return d.selectWorkspace(name)
}

// SwitchWorkspace selects workspace name of b; one that does not exist
// is an error, or is created first (with the lock) when orCreate, and
// created says so.
func (d *Dir) SwitchWorkspace(ctx context.Context, b backend.Backend, name string, orCreate bool) (created bool, _ diag.Diagnostics) {
	exists, ds := workspaceExists(ctx, b, name)
	switch {
	case ds.HasErrors():
		return false, ds
	case !exists && !orCreate:
		return false, diag.Diagnostics{workspaceMissing(name)}
	case !exists:
		if ds := d.CreateWorkspace(ctx, b, name, LockOptions{Lock: true}, nil); ds.HasErrors() {
			return false, ds
		}
	}
	return !exists, d.selectWorkspace(name)
}

// selectWorkspace is SelectWorkspace with its failure as a diagnostic.
func (d *Dir) selectWorkspace(name string) diag.Diagnostics {
	if err := d.SelectWorkspace(name); err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to select workspace", "%s", err)}
	}
	return nil
}

// RemoveWorkspace deletes workspace name of b (DeleteWorkspace), which
// must exist and be neither the selected workspace nor "default".
func (d *Dir) RemoveWorkspace(ctx context.Context, b backend.Backend, name string, force bool, lock LockOptions) diag.Diagnostics {
	exists, ds := workspaceExists(ctx, b, name)
	switch {
	case ds.HasErrors():
		return ds
	case !exists:
		return diag.Diagnostics{workspaceMissing(name)}
	}
	return d.DeleteWorkspace(ctx, b, name, force, lock)
}

// workspaceMissing is OpenTofu's error for a workspace that does not
// exist, which select and delete word alike, with its line break.
func workspaceMissing(name string) diag.Diagnostic {
	return diag.Errorf(fmt.Sprintf("Workspace %q doesn't exist", name),
		"You can create this workspace with the \"new\" subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand.")
}
