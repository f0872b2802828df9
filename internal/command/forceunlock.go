package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
)

// runForceUnlock answers `rig force-unlock LOCK_ID`. The local and pg
// backends' locks belong to the process that holds them (an OS lock on the
// lock file, a PostgreSQL session's advisory lock) and go away when it
// exits, however it exits, so there is never a stale lock of theirs to
// break: the command reports whether the state is locked, by whom, and that
// the holder must be stopped. The s3 backend's locks (an object, a DynamoDB
// item) outlive a holder that died; given their ID (and -force or the
// user's yes) the command releases them, as Terraform does.
func runForceUnlock(m *Meta, args []string) int {
	fs := m.flagSet("force-unlock")
	force := fs.Bool("force", false, "Do not ask for confirmation.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return m.argsError(fs, "Invalid number of arguments", "Exactly one argument expected: the ID of the lock to unlock.")
	}
	id := fs.Arg(0)
	ctx := context.Background()
	cfg, _ := m.loadConfigQuiet()
	store, ds := m.stateStore(ctx, cfg)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	held, err := store.Lock(ctx, backend.NewLockInfo("OperationTypeInvalid"))
	if err == nil {
		// Nobody holds it: there is nothing to unlock.
		_ = store.Unlock(ctx, held)
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state",
			"The state is not locked, so there is no lock %s to unlock.", id)})
		return 1
	}
	var le *backend.LockError
	if !errors.As(err, &le) {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state", "Checking the state lock: %s", err)})
		return 1
	}
	holder := "another process"
	if le.Info != nil {
		if le.Info.ID != "" && le.Info.ID != id {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state",
				"The lock ID %q does not match the lock that is held:\n\n%s", id, le.Info.String())})
			return 1
		}
		holder = fmt.Sprintf("%s (%s)", le.Info.Who, le.Info.Operation)
		// A lock that outlives its holder is released by whoever gives its
		// ID; the stores whose locks belong to a process refuse.
		if *force || m.confirm("Do you really want to force-unlock?",
			"rig will remove the lock on the state.\nThis will allow rig commands to modify this state, even though it\nmay still be in use. Only 'yes' will be accepted to confirm.") {
			if err := store.Unlock(ctx, id); err == nil {
				fmt.Fprint(m.Out, "rig state has been successfully unlocked!\n\nThe state has been unlocked, and rig commands should now be able to\nobtain a new lock on the state.\n")
				return 0
			}
		}
	}
	m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to unlock state",
		"The lock is held by %s, which is still running: rig's state locks belong to the process holding them and are released when it exits, however it exits. Stop that process (or wait for it) instead of breaking the lock it relies on.\n\n%s", holder, le.Error())})
	return 1
}
