package command

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// modifyState changes the workspace's state with fn under its lock
// (workdir.Dir.ModifyState) and shows what came of it.
func (m *Meta) modifyState(opts workdir.LockOptions, fn func(s *state.State) (changed bool, ds diag.Diagnostics)) int {
	cfg, _ := m.loadConfigQuiet()
	ds := m.dir().ModifyState(context.Background(), cfg, opts, fn)
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// moveObjects moves what from names in src to to in dst
// (workdir.MoveObjects), saying what it moves or, with dry, would move.
func (m *Meta) moveObjects(src, dst *state.State, from, to workdir.StateTarget, dry bool) (bool, diag.Diagnostics) {
	n, ds := workdir.MoveObjects(src, dst, from, to, dry)
	if ds.HasErrors() {
		return false, ds
	}
	ui.StateEditView{W: m.Out, DryRun: dry}.Moved(from, to, n)
	return !dry, nil
}

// stateFlags are the options every state-changing command takes.
func stateFlags(fs *flag.FlagSet, dryRun bool) (*bool, *bool, *time.Duration) {
	var lock bool
	var lockTimeout time.Duration
	addLockFlags(fs, &lock, &lockTimeout)
	var dry *bool
	if dryRun {
		dry = fs.Bool("dry-run", false, "Print what would change, and change nothing.")
	}
	return dry, &lock, &lockTimeout
}

func runStateRm(m *Meta, args []string) int {
	fs := m.flagSet("state rm")
	dry, lock, lockTimeout := stateFlags(fs, true)
	m.addLegacyStateFlags(fs, legacyStateBackup)
	m.legacy.AnyBackend, m.legacy.StampedBackup = true, true
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return m.argsError(fs, "Invalid number of arguments", "At least one address is required.")
	}
	var targets []workdir.StateTarget
	for _, a := range fs.Args() {
		t, err := workdir.ParseStateTarget(a)
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid target address", "%s", err)})
			return 1
		}
		targets = append(targets, t)
	}
	return m.modifyState(workdir.LockOptions{Lock: *lock, Timeout: *lockTimeout, RequireState: true}, func(s *state.State) (bool, diag.Diagnostics) {
		instances, ds := workdir.RemoveObjects(s, targets, *dry)
		if ds.HasErrors() {
			return false, ds
		}
		ui.StateEditView{W: m.Out, DryRun: *dry}.Removed(instances)
		return !*dry, ds
	})
}

func runStateMv(m *Meta, args []string) int {
	fs := m.flagSet("state mv")
	dry, lock, lockTimeout := stateFlags(fs, true)
	m.addLegacyStateFlags(fs, legacyStateBackup)
	m.legacy.AnyBackend, m.legacy.StampedBackup = true, true
	stateOut := fs.String("state-out", "", "Legacy option for the local backend only: move the objects into the state file at `PATH` (created if missing) rather than within the state they are in.")
	backupOut := fs.String("backup-out", "", "Legacy option for the local backend only, with -state-out: back up the -state-out file to `PATH` before writing it (\"-\" for no backup); by default to its path followed by the time and \".backup\".")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return m.argsError(fs, "Invalid number of arguments", "Exactly two arguments expected: the source and destination addresses.")
	}
	from, err := workdir.ParseStateTarget(fs.Arg(0))
	if err == nil {
		var to workdir.StateTarget
		if to, err = workdir.ParseStateTarget(fs.Arg(1)); err == nil {
			if *stateOut != "" {
				cfg, _ := m.loadConfigQuiet()
				ds := m.dir().ModifyStateAndFile(context.Background(), cfg, workdir.LockOptions{Lock: *lock, Timeout: *lockTimeout, RequireState: true}, *stateOut, *backupOut,
					func(src, dst *state.State) (bool, diag.Diagnostics) { return m.moveObjects(src, dst, from, to, *dry) })
				m.showDiagnostics(ds)
				if ds.HasErrors() {
					return 1
				}
				return 0
			}
			return m.modifyState(workdir.LockOptions{Lock: *lock, Timeout: *lockTimeout, RequireState: true}, func(s *state.State) (bool, diag.Diagnostics) {
				return m.moveObjects(s, s, from, to, *dry)
			})
		}
	}
	m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid address", "%s", err)})
	return 1
}

func runTaint(m *Meta, args []string) int   { return setTainted(m, "taint", args, true) }
func runUntaint(m *Meta, args []string) int { return setTainted(m, "untaint", args, false) }

// setTainted marks the current object of one instance tainted (the next
// plan replaces it) or in good standing again.
func setTainted(m *Meta, name string, args []string, tainted bool) int {
	fs := m.flagSet(name)
	_, lock, lockTimeout := stateFlags(fs, false)
	m.addLegacyStateFlags(fs, legacyAll)
	allowMissing := fs.Bool("allow-missing", false, "Succeed even if the resource instance is missing.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	addr, code, ok := m.oneManagedInstance(fs, "can be tainted")
	if !ok {
		return code
	}
	return m.modifyState(workdir.LockOptions{Lock: *lock, Timeout: *lockTimeout}, func(s *state.State) (bool, diag.Diagnostics) {
		changed, ds := workdir.SetTainted(s, addr, tainted, *allowMissing)
		if changed {
			ui.StateEditView{W: m.Out}.Tainted(addr, tainted)
		}
		return changed, ds
	})
}

// oneManagedInstance parses the one argument of fs, the address of a
// managed resource instance (taint, untaint, state unprotect); the error
// for a data resource ends "only managed resources " + what. When not ok,
// code is the exit status.
func (m *Meta) oneManagedInstance(fs *flag.FlagSet, what string) (addrs.AbsResourceInstance, int, bool) {
	if fs.NArg() != 1 {
		return addrs.AbsResourceInstance{}, m.argsError(fs, "Invalid arguments", "The "+fs.Name()+" command expects exactly one argument."), false
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if err == nil && addr.Resource.Resource.Mode != addrs.Managed {
		err = fmt.Errorf("%s is a data resource: only managed resources %s", addr, what)
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid resource instance address", "%s", err)})
		return addrs.AbsResourceInstance{}, 1, false
	}
	return addr, 0, true
}

func runStateReplaceProvider(m *Meta, args []string) int {
	fs := m.flagSet("state replace-provider")
	_, lock, lockTimeout := stateFlags(fs, false)
	m.addLegacyStateFlags(fs, legacyAll)
	m.legacy.AnyBackend, m.legacy.StampedBackup = true, true
	autoApprove := fs.Bool("auto-approve", false, "Replace without asking for confirmation.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return m.argsError(fs, "Invalid number of arguments", "Exactly two arguments expected: the provider to replace and its replacement, such as hashicorp/aws registry.example.com/acme/aws.")
	}
	from, err := addrs.ParseProviderSource(fs.Arg(0))
	var to addrs.Provider
	if err == nil {
		to, err = addrs.ParseProviderSource(fs.Arg(1))
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid provider address", "%s", err)})
		return 1
	}
	return m.modifyState(workdir.LockOptions{Lock: *lock, Timeout: *lockTimeout, RequireState: true}, func(s *state.State) (bool, diag.Diagnostics) {
		matched := workdir.ResourcesOfProvider(s, from)
		view := ui.StateEditView{W: m.Out}
		var resources []addrs.AbsResource
		for _, r := range matched {
			resources = append(resources, r.Addr)
		}
		if view.ProviderReplacement(from, to, resources); len(matched) == 0 {
			return false, nil
		}
		if !*autoApprove && !m.confirm("Do you want to make these changes?", "Only 'yes' will be accepted to continue.") {
			fmt.Fprintln(m.Out, "Cancelled replacing providers.")
			return false, nil
		}
		for _, r := range matched {
			r.ProviderConfig.Provider = to
		}
		view.ProvidersReplaced(len(matched))
		return true, nil
	})
}
