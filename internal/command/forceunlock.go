package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
)

// runForceUnlock answers `rig force-unlock LOCK_ID`. rig's state locks
// belong to the process that holds them (an OS lock on the lock file, a
// PostgreSQL session's advisory lock) and go away when it exits, however
// it exits, so there is never a stale rig lock to break: the command
// reports whether the state is locked, by whom, and that the holder must
// be stopped, rather than breaking a lock a running operation relies on.
// The exception is a backend whose locks live on a server and outlive
// their holder (http; s3's lock object and DynamoDB item): there, as in
// Terraform, the lock with that ID is released once the user confirms (or
// with -force).
func runForceUnlock(m *Meta, args []string) int {
	fs := m.flagSet("force-unlock")
	force := fs.Bool("force", false, "Do not ask for confirmation (only a backend whose locks outlive their holder, http or s3, asks).")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return m.argsError(fs, "Wrong number of arguments", "Exactly one argument expected: the ID of the lock to unlock.")
	}
	id := fs.Arg(0)
	ctx := context.Background()
	cfg, _ := m.loadConfigQuiet()
	held, ds := m.dir().FindLock(ctx, cfg, id)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if held.OnServer {
		return m.breakServerLock(ctx, held.Store, id, held.Err, *force)
	}
	m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state",
		"The lock is held by %s, which is still running: rig's state locks belong to the process holding them and are released when it exits, however it exits. Stop that process (or wait for it) instead of breaking the lock it relies on.\n\n%s", held.Holder(), held.Err.Error())})
	return 1
}

// breakServerLock releases a lock that a state server keeps, whose holder
// may be long gone, after the user confirms unless force.
func (m *Meta) breakServerLock(ctx context.Context, store backend.Store, id string, le *backend.LockError, force bool) int {
	if !force && !m.confirm("Do you really want to force-unlock?",
		"rig will remove the lock on the remote state, held by:\n"+strings.TrimSuffix(le.Error(), "\n")+
			"\nThis lets other commands change the state even if its holder still runs.\nOnly 'yes' will be accepted to confirm.") {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state", "Unlocking was cancelled: the lock %s is still held. Use -force to unlock without being asked.", id)})
		return 1
	}
	if err := store.Unlock(ctx, id); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state", "%s", err)})
		return 1
	}
	fmt.Fprintf(m.Out, "rig state has been successfully unlocked!\n\nThe state has been unlocked, and rig commands should now be able to\nobtain a new lock on the remote state.\n")
	return 0
}
