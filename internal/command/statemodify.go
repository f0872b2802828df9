package command

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/state/statemgr"
	"github.com/rig-iac/rig/internal/workdir"
)

// stateTarget is an address a state command is given: a resource instance,
// every instance of a resource, or everything in a module (instance).
type stateTarget struct {
	raw      string
	module   addrs.ModuleInstance
	resource addrs.Resource // zero for a module
	key      addrs.InstanceKey
	keyGiven bool
}

func parseStateTarget(s string) (stateTarget, error) {
	t := stateTarget{raw: s}
	if ri, err := addrs.ParseAbsResourceInstanceStr(s); err == nil {
		t.module, t.resource, t.key = ri.Module, ri.Resource.Resource, ri.Resource.Key
		t.keyGiven = strings.HasSuffix(s, "]")
		return t, nil
	}
	mi, err := addrs.ParseModuleInstanceStr(s)
	if err != nil || mi.IsRoot() {
		return t, fmt.Errorf("%q is not a resource, resource instance or module address", s)
	}
	t.module = mi
	return t, nil
}

func (t stateTarget) isModule() bool { return t.resource == (addrs.Resource{}) }

// inModule reports whether m is the target module, one of its instances
// (when the target gives no key), or a module inside one of those.
func (t stateTarget) inModule(m addrs.ModuleInstance) bool {
	tm, s := string(t.module), string(m)
	return s == tm || strings.HasPrefix(s, tm+".") || (!strings.HasSuffix(tm, "]") && strings.HasPrefix(s, tm+"["))
}

// matches reports whether the object at oa is one the target names.
func (t stateTarget) matches(oa addrs.ObjectAddr) bool {
	inst := oa.Instance
	if t.isModule() {
		return t.inModule(inst.Module)
	}
	if inst.Module != t.module || inst.Resource.Resource != t.resource {
		return false
	}
	return !t.keyGiven || inst.Resource.Key == t.key
}

// modifyState runs fn on the workspace's state while holding its lock and,
// when fn reports a change, writes the result with the next serial (the
// local backend keeps the previous state as its backup).
func (m *Meta) modifyState(lock bool, lockTimeout time.Duration, fn func(s *state.State) (changed bool, ds diag.Diagnostics)) int {
	ctx := context.Background()
	cfg, _ := m.loadConfigQuiet()
	store, ds := m.dir().StateStore(ctx, cfg)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if lock {
		unlock, more := m.dir().LockState(ctx, store, "OperationTypeInvalid", lockTimeout)
		if more.HasErrors() {
			m.showDiagnostics(ds.Append(more))
			return 1
		}
		defer unlock()
	}
	s, more := workdir.ReadState(ctx, store)
	ds = ds.Append(more)
	if !ds.HasErrors() {
		// A run killed part-way left its completed operations in the journal.
		ds = ds.Append(statemgr.Recover(ctx, store, s))
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	changed, more := fn(s)
	ds = ds.Append(more)
	if ds.HasErrors() || !changed {
		m.showDiagnostics(ds)
		if ds.HasErrors() {
			return 1
		}
		return 0
	}
	s.Serial++
	data, err := statefile.Marshal(s)
	if err == nil {
		err = store.Write(ctx, data)
	}
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to write state", "%s", err)))
		return 1
	}
	m.showDiagnostics(ds)
	return 0
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

func noMatch(target string) diag.Diagnostic {
	return diag.Errorf("Invalid target address",
		"No matching objects found for %s. To view the available instances, use \"rig state list\". Please modify the address to reference a specific instance.", target)
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
	var targets []stateTarget
	for _, a := range fs.Args() {
		t, err := parseStateTarget(a)
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid target address", "%s", err)})
			return 1
		}
		targets = append(targets, t)
	}
	return m.modifyState(*lock, *lockTimeout, func(s *state.State) (bool, diag.Diagnostics) {
		var ds diag.Diagnostics
		var removed []addrs.ObjectAddr
		for _, t := range targets {
			n := 0
			for _, oa := range s.Objects() {
				if t.matches(oa) {
					removed = append(removed, oa)
					n++
				}
			}
			if n == 0 {
				ds = ds.Append(noMatch(t.raw))
			}
		}
		if ds.HasErrors() {
			return false, ds
		}
		verb := "Removed"
		if *dry {
			verb = "Would remove"
		}
		instances := map[addrs.AbsResourceInstance]bool{}
		for _, oa := range removed {
			if !instances[oa.Instance] {
				fmt.Fprintf(m.Out, "%s %s\n", verb, oa.Instance)
			}
			instances[oa.Instance] = true
		}
		if *dry {
			return false, ds
		}
		for _, oa := range removed {
			s.SetObject(oa, nil, addrs.AbsProviderConfig{})
		}
		fmt.Fprintf(m.Out, "Successfully removed %d resource instance(s).\n", len(instances))
		return true, ds
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
	from, err := parseStateTarget(fs.Arg(0))
	if err == nil {
		var to stateTarget
		if to, err = parseStateTarget(fs.Arg(1)); err == nil {
			if *stateOut != "" {
				return m.moveToFile(from, to, *dry, stateFileOptions{lock: *lock, lockTimeout: *lockTimeout, path: *stateOut, backup: *backupOut})
			}
			return m.modifyState(*lock, *lockTimeout, func(s *state.State) (bool, diag.Diagnostics) {
				return m.moveObjects(s, s, from, to, *dry)
			})
		}
	}
	m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid address", "%s", err)})
	return 1
}

// moveObjects moves what from names in src to to in dst (src itself, or
// another state): an instance to an instance, a resource's instances to
// another resource of its type, or a module's resources into another
// module path.
func (m *Meta) moveObjects(src, dst *state.State, from, to stateTarget, dry bool) (bool, diag.Diagnostics) {
	invalid := func(format string, a ...any) (bool, diag.Diagnostics) {
		return false, diag.Diagnostics{diag.Errorf("Invalid state move request", format, a...)}
	}
	if from.isModule() != to.isModule() {
		return invalid("Cannot move %s to %s: a module can only move to a module, and a resource to a resource.", from.raw, to.raw)
	}
	if !from.isModule() && from.resource.Type != to.resource.Type {
		return invalid("Cannot move %s to %s: resource types don't match.", from.raw, to.raw)
	}
	if !from.isModule() && from.keyGiven != to.keyGiven {
		return invalid("Cannot move %s to %s: an instance can only move to an instance, and a resource to a resource.", from.raw, to.raw)
	}
	type move struct{ src, dst addrs.ObjectAddr }
	var moves []move
	for _, oa := range src.Objects() {
		if !from.matches(oa) {
			continue
		}
		dst := oa
		switch {
		case from.isModule():
			rest := strings.TrimPrefix(string(oa.Instance.Module), string(from.module))
			mi, err := addrs.ParseModuleInstanceStr(string(to.module) + rest)
			if err != nil {
				return invalid("Cannot move %s to %s: %s.", from.raw, to.raw, err)
			}
			dst.Instance.Module = mi
		default:
			dst.Instance.Module = to.module
			dst.Instance.Resource.Resource = to.resource
			if to.keyGiven {
				dst.Instance.Resource.Key = to.key
			}
		}
		moves = append(moves, move{oa, dst})
	}
	if len(moves) == 0 {
		return false, diag.Diagnostics{noMatch(from.raw)}
	}
	moving := map[addrs.ObjectAddr]bool{}
	for _, mv := range moves {
		moving[mv.src] = true
	}
	for _, mv := range moves {
		if dst.Object(mv.dst) != nil && (src != dst || !moving[mv.dst]) {
			return invalid("Cannot move %s to %s: there is already an object at %s in the state.", from.raw, to.raw, mv.dst)
		}
	}
	verb := "Move"
	if dry {
		verb = "Would move"
	}
	fmt.Fprintf(m.Out, "%s %q to %q\n", verb, from.raw, to.raw)
	if dry {
		return false, nil
	}
	type placed struct {
		obj *state.Object
		pc  addrs.AbsProviderConfig
	}
	objs := make([]placed, len(moves))
	for i, mv := range moves {
		objs[i] = placed{src.Object(mv.src), src.ObjectProvider(mv.src.Instance)}
	}
	for _, mv := range moves {
		src.SetObject(mv.src, nil, addrs.AbsProviderConfig{})
	}
	for i, mv := range moves {
		dst.SetObject(mv.dst, objs[i].obj, objs[i].pc)
	}
	fmt.Fprintf(m.Out, "Successfully moved %d object(s).\n", len(moves))
	return true, nil
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
	if fs.NArg() != 1 {
		return m.argsError(fs, "Invalid number of arguments", "The "+name+" command expects exactly one argument: the address of a resource instance.")
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if err == nil && addr.Resource.Resource.Mode != addrs.Managed {
		err = fmt.Errorf("%s is a data resource: only managed resources can be tainted", addr)
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid resource instance address", "%s", err)})
		return 1
	}
	return m.modifyState(*lock, *lockTimeout, func(s *state.State) (bool, diag.Diagnostics) {
		oa := addrs.ObjectAddr{Instance: addr}
		obj := s.Object(oa)
		if obj == nil {
			if *allowMissing {
				return false, diag.Diagnostics{{Severity: diag.Warning, Summary: "No such resource instance",
					Detail: fmt.Sprintf("Resource instance %s was not found, but this is not an error because -allow-missing was set.", addr)}}
			}
			return false, diag.Diagnostics{diag.Errorf("No such resource instance",
				"There is no resource instance in the state with the address %s. If the resource configuration has just been added, you must run \"rig apply\" once to create the corresponding instance(s) before they can be %sed.", addr, name)}
		}
		if !tainted && obj.Status != state.Tainted {
			return false, diag.Diagnostics{diag.Errorf("Resource instance is not tainted", "Resource instance %s is not currently tainted, and so it cannot be untainted.", addr)}
		}
		cp := *obj
		cp.Status = state.Ready
		if tainted {
			cp.Status = state.Tainted
		}
		s.SetObject(oa, &cp, s.ObjectProvider(addr))
		if tainted {
			fmt.Fprintf(m.Out, "Resource instance %s has been marked as tainted.\n", addr)
		} else {
			fmt.Fprintf(m.Out, "Resource instance %s has been successfully untainted.\n", addr)
		}
		return true, nil
	})
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
	return m.modifyState(*lock, *lockTimeout, func(s *state.State) (bool, diag.Diagnostics) {
		var matched []*state.Resource
		for _, ra := range s.ResourceAddrs() {
			if r := s.Resources[ra]; r.ProviderConfig.Provider == from {
				matched = append(matched, r)
			}
		}
		if len(matched) == 0 {
			fmt.Fprintln(m.Out, "No matching resources found.")
			return false, nil
		}
		fmt.Fprintf(m.Out, "rig will perform the following actions:\n\n  ~ Updating provider:\n    - %s\n    + %s\n\nChanging %d resources:\n\n", from, to, len(matched))
		for _, r := range matched {
			fmt.Fprintf(m.Out, "  %s\n", r.Addr)
		}
		fmt.Fprintln(m.Out)
		if !*autoApprove && !m.confirm("Do you want to make these changes?", "Only 'yes' will be accepted to continue.") {
			fmt.Fprintln(m.Out, "Cancelled replacing providers.")
			return false, nil
		}
		for _, r := range matched {
			r.ProviderConfig.Provider = to
		}
		fmt.Fprintf(m.Out, "\nSuccessfully replaced provider for %d resources.\n", len(matched))
		return true, nil
	})
}
