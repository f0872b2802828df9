package command

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
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
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
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
	var messages *ui.JSONView
	if m.stream != nil {
		messages = m.stream.View
	}
	ui.RenderWorkspaceList(m.Out, messages, names, m.dir().Workspace(), workdir.WorkspaceOverridden())
	return 0
}

func runWorkspaceShow(m *Meta, args []string) int {
	fs := m.flagSet("workspace show")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
	}
	fmt.Fprintln(m.Out, m.dir().Workspace())
	return 0
}

// oneWorkspaceArg parses a subcommand's flags, with -json and -json-into,
// starts its JSON stream (workspaceMessage) and checks its single NAME
// argument; when not ok, code is the exit status.
func (m *Meta) oneWorkspaceArg(fs *flag.FlagSet, args []string) (name string, code int, ok bool) {
	var stream streamFlags
	addStreamFlags(fs, &stream)
	if code, ok := m.parseArgs(fs, args); !ok {
		return "", code, false
	}
	if !m.startTypedStream(stream) {
		return "", 1, false
	}
	if fs.NArg() != 1 {
		return "", m.argsError(fs, "Invalid arguments list", "The "+fs.Name()+" command expects exactly one argument: the name of the workspace."), false
	}
	name = fs.Arg(0)
	if backend.ValidateWorkspaceName(name) != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid workspace name",
			"The workspace name %q is not allowed. The name must contain only URL safe characters, and no path separators.", name)})
		return "", 1, false
	}
	return name, 0, true
}

// workspaceOverridden shows why the selected workspace cannot change
// when TF_WORKSPACE overrides it (workdir.CheckWorkspaceSelectable).
func (m *Meta) workspaceOverridden() bool {
	ds := workdir.CheckWorkspaceSelectable()
	m.showDiagnostics(ds)
	return ds.HasErrors()
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
		var err error
		if initial, err = workdir.ReadStateFile(*from); err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the state to copy", "Reading %s: %s.", *from, err)})
			return 1
		}
	}
	if ds := workdir.CheckWorkspaceCreatable(name); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	if ds := m.dir().NewWorkspace(context.Background(), b, name, workdir.LockOptions{Lock: lock, Timeout: lockTimeout}, initial); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	m.printWorkspaceCreated(name)
	return 0
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
	if name == m.dir().Workspace() {
		// Already selected: nothing to say, as in OpenTofu.
		return 0
	}
	created, ds := m.dir().SwitchWorkspace(context.Background(), b, name, *orCreate)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if created {
		m.printWorkspaceCreated(name)
		return 0
	}
	text := fmt.Sprintf("Switched to workspace %q", name)
	fmt.Fprintln(m.Out, colorText(m.Color, "\x1b[0m\x1b[32m"+text+".\x1b[0m", text+"."))
	m.workspaceMessage(text)
	return 0
}

// printWorkspaceCreated says that workspace name was created and
// selected, in green as OpenTofu says it.
func (m *Meta) printWorkspaceCreated(name string) {
	head := fmt.Sprintf("Created and switched to workspace %q!", name)
	const rest = "\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"rig plan\" rig will not see any existing state\nfor this configuration."
	fmt.Fprintln(m.Out, colorText(m.Color, "\x1b[0m\x1b[32m\x1b[1m"+head+"\x1b[0m\x1b[32m"+rest+"\x1b[0m", head+rest))
	m.workspaceMessage(fmt.Sprintf("Created and switched to workspace %q. You're now on a new, empty workspace. Workspaces isolate their state, so if you run \"rig plan\" rig will not see any existing state for this configuration", name))
}

// workspaceMessage sends what a workspace command did to its JSON stream,
// if any, as OpenTofu words its messages: one info message, without the
// human output's final punctuation.
func (m *Meta) workspaceMessage(text string) {
	if m.stream != nil {
		m.stream.View.Info(text)
	}
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
	if ds := m.dir().CheckWorkspaceRemovable(name); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	if ds := m.dir().RemoveWorkspace(context.Background(), b, name, *force, workdir.LockOptions{Lock: lock, Timeout: lockTimeout}); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprintf(m.Out, "Deleted workspace %q!\n", name)
	m.workspaceMessage(fmt.Sprintf("Deleted workspace %q", name))
	return 0
}
