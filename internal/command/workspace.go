package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
	"github.com/rig-iac/rig/internal/workdir"
)

// workspaceBackend opens the configured backend.
func (m *Meta) workspaceBackend() (backend.Backend, bool) {
	cfg, _ := m.loadConfigQuiet()
	b, ds := m.dir().Backend(cfg)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return nil, false
	}
	return b, true
}

func runWorkspaceList(m *Meta, args []string) int {
	fs := m.flagSet("workspace list")
	var stream streamFlags
	addStreamFlags(fs, &stream)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no arguments.")
	}
	if !m.startTypedStream(stream) {
		return 1
	}
	defer m.endStream()
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	names, err := b.Workspaces(context.Background())
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to list workspaces", "%s", err)})
		return 1
	}
	current := m.dir().Workspace()
	if m.stream != nil {
		m.stream.view.Message("list of workspaces", "workspace_list", map[string]any{"workspaces": names, "current_workspace": current})
	}
	for _, n := range names {
		mark := "  "
		if n == current {
			mark = "* "
		}
		fmt.Fprintln(m.Out, mark+n)
	}
	fmt.Fprintln(m.Out)
	return 0
}

func runWorkspaceShow(m *Meta, args []string) int {
	fs := m.flagSet("workspace show")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no arguments.")
	}
	fmt.Fprintln(m.Out, m.dir().Workspace())
	return 0
}

// oneWorkspaceArg parses a subcommand's flags and its single NAME
// argument; when not ok, code is the exit status.
func (m *Meta) oneWorkspaceArg(fs *flag.FlagSet, args []string) (name string, code int, ok bool) {
	if code, ok := m.parseArgs(fs, args); !ok {
		return "", code, false
	}
	if fs.NArg() != 1 {
		return "", m.argsError(fs, "Expected a single argument: NAME", "The "+fs.Name()+" command expects exactly one argument: the name of the workspace."), false
	}
	name = fs.Arg(0)
	if err := backend.ValidateWorkspaceName(name); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid workspace name", "%s", err)})
		return "", 1, false
	}
	return name, 0, true
}

func (m *Meta) workspaceOverridden() bool {
	if os.Getenv("TF_WORKSPACE") == "" {
		return false
	}
	m.showDiagnostics(diag.Diagnostics{diag.Errorf("Workspace overridden",
		"The selected workspace is currently overridden using the TF_WORKSPACE environment variable. To select a new workspace, either update this environment variable or unset it and then run this command again.")})
	return true
}

func runWorkspaceNew(m *Meta, args []string) int {
	fs := m.flagSet("workspace new")
	var lock bool
	var lockTimeout time.Duration
	addLockFlags(fs, &lock, &lockTimeout)
	from := fs.String("state", "", "Copy the state file at `PATH` into the new workspace, rather than starting it with an empty state.")
	name, code, ok := m.oneWorkspaceArg(fs, args)
	if !ok {
		return code
	}
	var initial *state.State
	if *from != "" {
		data, err := os.ReadFile(*from)
		if err == nil {
			initial, err = statefile.Parse(data)
		}
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the state to copy", "Reading %s: %s.", *from, err)})
			return 1
		}
	}
	if m.workspaceOverridden() {
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	ctx := context.Background()
	names, err := b.Workspaces(ctx)
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to list workspaces", "%s", err)})
		return 1
	}
	if slices.Contains(names, name) {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q already exists", name), "")})
		return 1
	}
	if ds := m.createWorkspaceWith(ctx, b, name, lock, lockTimeout, initial); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if err := m.dir().SelectWorkspace(name); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to select workspace", "%s", err)})
		return 1
	}
	fmt.Fprintf(m.Out, "Created and switched to workspace %q!\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"rig plan\" rig will not see any existing state\nfor this configuration.\n", name)
	return 0
}

// createWorkspace writes an empty state (serial 1, a new lineage) to a new
// workspace, as Terraform's pg backend does, so that the workspace exists
// for Terraform and OpenTofu too.
func (m *Meta) createWorkspace(ctx context.Context, b backend.Backend, name string, lock bool, timeout time.Duration) diag.Diagnostics {
	return m.createWorkspaceWith(ctx, b, name, lock, timeout, nil)
}

// createWorkspaceWith is createWorkspace with the state initial (its
// lineage and serial kept) instead of an empty one when not nil, as
// `workspace new -state=PATH` creates it.
func (m *Meta) createWorkspaceWith(ctx context.Context, b backend.Backend, name string, lock bool, timeout time.Duration, initial *state.State) diag.Diagnostics {
	store, err := b.Store(ctx, name)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to create workspace", "%s", err)}
	}
	if lock {
		unlock, ds := m.dir().LockState(ctx, store, "OperationTypeInvalid", timeout)
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

func runWorkspaceSelect(m *Meta, args []string) int {
	fs := m.flagSet("workspace select")
	orCreate := fs.Bool("or-create", false, "Create the workspace if it does not exist, then select it.")
	name, code, ok := m.oneWorkspaceArg(fs, args)
	if !ok {
		return code
	}
	if m.workspaceOverridden() {
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	ctx := context.Background()
	names, err := b.Workspaces(ctx)
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to list workspaces", "%s", err)})
		return 1
	}
	if !slices.Contains(names, name) {
		if !*orCreate {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q doesn't exist.", name),
				"You can create this workspace with the \"new\" subcommand or include the \"-or-create\" flag with the \"select\" subcommand.")})
			return 1
		}
		if ds := m.createWorkspace(ctx, b, name, true, 0); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	if err := m.dir().SelectWorkspace(name); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to select workspace", "%s", err)})
		return 1
	}
	fmt.Fprintf(m.Out, "Switched to workspace %q.\n", name)
	return 0
}

func runWorkspaceDelete(m *Meta, args []string) int {
	fs := m.flagSet("workspace delete")
	force := fs.Bool("force", false, "Delete the workspace even if its state still tracks resources, which rig then loses track of.")
	var lock bool
	var lockTimeout time.Duration
	addLockFlags(fs, &lock, &lockTimeout)
	name, code, ok := m.oneWorkspaceArg(fs, args)
	if !ok {
		return code
	}
	if name == m.dir().Workspace() {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q is your active workspace.", name),
			"You cannot delete the currently active workspace. Please switch to another workspace and try again.")})
		return 1
	}
	if name == backend.DefaultWorkspace {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Can't delete the default workspace", "%s", backend.ErrDefaultWorkspace)})
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	ctx := context.Background()
	names, err := b.Workspaces(ctx)
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to list workspaces", "%s", err)})
		return 1
	}
	if !slices.Contains(names, name) {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("Workspace %q doesn't exist.", name), "")})
		return 1
	}
	store, err := b.Store(ctx, name)
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to open state", "%s", err)})
		return 1
	}
	unlock := func() {}
	if lock {
		u, ds := m.dir().LockState(ctx, store, "OperationTypeInvalid", lockTimeout)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		unlock = u
	}
	s, ds := workdir.ReadState(ctx, store)
	if ds.HasErrors() && !*force {
		unlock()
		m.showDiagnostics(ds)
		return 1
	}
	if s != nil && len(s.Resources) > 0 && !*force {
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
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Workspace is not empty", "%s", detail)})
		return 1
	}
	// Release the lock just before deleting, as Terraform does: a backend
	// may not be able to remove a workspace while it is locked.
	unlock()
	if err := b.DeleteWorkspace(ctx, name); err != nil && !errors.Is(err, backend.ErrWorkspaceNotFound) {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to delete workspace", "%s", err)})
		return 1
	}
	fmt.Fprintf(m.Out, "Deleted workspace %q!\n", name)
	return 0
}
