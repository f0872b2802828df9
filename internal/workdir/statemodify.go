package workdir

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/encryption"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/state/statemgr"
)

// StateTarget is an address a state command is given: a resource
// instance, every instance of a resource, or everything in a module
// (instance).
type StateTarget struct {
	raw      string
	module   addrs.ModuleInstance
	resource addrs.Resource // zero for a module
	key      addrs.InstanceKey
	keyGiven bool
}

// ParseStateTarget parses the address a state command is given.
func ParseStateTarget(s string) (StateTarget, error) {
	t := StateTarget{raw: s}
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

func (t StateTarget) isModule() bool { return t.resource == (addrs.Resource{}) }

// inModule reports whether m is the target module, one of its instances
// (when the target gives no key), or a module inside one of those.
func (t StateTarget) inModule(m addrs.ModuleInstance) bool {
	tm, s := string(t.module), string(m)
	return s == tm || strings.HasPrefix(s, tm+".") || (!strings.HasSuffix(tm, "]") && strings.HasPrefix(s, tm+"["))
}

// String returns the address as it was given.
func (t StateTarget) String() string { return t.raw }

// Matches reports whether the object at oa is one the target names.
func (t StateTarget) Matches(oa addrs.ObjectAddr) bool {
	inst := oa.Instance
	if t.isModule() {
		return t.inModule(inst.Module)
	}
	if inst.Module != t.module || inst.Resource.Resource != t.resource {
		return false
	}
	return !t.keyGiven || inst.Resource.Key == t.key
}

// ModifyState runs change on the workspace's state (of the backend cfg
// selects) while holding its lock (unless lock says not to) and, when
// change reports a change, writes the result with the next serial (the
// local backend keeps the previous state as its backup). A run killed
// part-way left its completed operations in the journal: they are
// recovered first.
func (d *Dir) ModifyState(ctx context.Context, cfg *config.Module, lock LockOptions, change func(s *state.State) (changed bool, ds diag.Diagnostics)) diag.Diagnostics {
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return ds
	}
	if lock.Lock {
		unlock, more := d.LockState(ctx, store, "OperationTypeInvalid", lock.Timeout)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		defer unlock()
	}
	s, more := d.readRecovered(ctx, store, lock.RequireState)
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	changed, more := change(s)
	ds = ds.Append(more)
	if ds.HasErrors() || !changed {
		return ds
	}
	return ds.Append(writeNext(ctx, store, s))
}

// readRecovered reads a locked store's state with the operations a
// crashed run left in its journal; with requireState, none stored is an
// error.
func (d *Dir) readRecovered(ctx context.Context, store backend.Store, requireState bool) (*state.State, diag.Diagnostics) {
	data, err := store.Read(ctx)
	if err != nil {
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "%s", err)}
	}
	if requireState && noStateIn(data) {
		return nil, diag.Diagnostics{noStateFound()}
	}
	s, ds := ParseState(store, data)
	if !ds.HasErrors() {
		ds = ds.Append(statemgr.Recover(ctx, store, s))
	}
	return s, ds
}

// writeNext writes s to store with the next serial.
func writeNext(ctx context.Context, store backend.Store, s *state.State) diag.Diagnostics {
	s.Serial++
	data, err := statefile.Marshal(s)
	if err == nil {
		err = store.Write(ctx, data)
	}
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to write state", "%s", err)}
	}
	return nil
}

// ModifyStateAndFile is ModifyState for a change that moves objects out of
// the workspace's state into the state file at path (state mv
// -state-out), created if missing and backed up to backup first ("" for
// its path followed by the time and .backup, "-" for none). Both are
// locked and recovered, and both written with their next serials, the file
// first: an object is never in neither. When the file is the workspace's
// state, change gets it twice.
func (d *Dir) ModifyStateAndFile(ctx context.Context, cfg *config.Module, lock LockOptions, path, backup string, change func(src, dst *state.State) (changed bool, ds diag.Diagnostics)) diag.Diagnostics {
	srcStore, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return ds
	}
	if backup == "" {
		backup = fmt.Sprintf("%s.%d%s", path, time.Now().Unix(), local.BackupExtension)
	}
	dstStore, err := d.LegacyStateStore(ctx, path, backup)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to open state", "%s", err)}
	}
	if srcStore.Path() == dstStore.Path() {
		return d.ModifyState(ctx, cfg, lock, func(s *state.State) (bool, diag.Diagnostics) { return change(s, s) })
	}
	var states [2]*state.State
	for i, store := range []backend.Store{srcStore, dstStore} {
		if lock.Lock {
			unlock, more := d.LockState(ctx, store, "OperationTypeInvalid", lock.Timeout)
			if more.HasErrors() {
				return ds.Append(more)
			}
			defer unlock()
		}
		// The file moved into may be new; the state moved from may not.
		s, more := d.readRecovered(ctx, store, lock.RequireState && i == 0)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		states[i] = s
	}
	src, dst := states[0], states[1]
	changed, more := change(src, dst)
	ds = ds.Append(more)
	if ds.HasErrors() || !changed {
		return ds
	}
	// The destination first: an object is never in neither file.
	if ds = ds.Append(writeNext(ctx, dstStore, dst)); ds.HasErrors() {
		return ds
	}
	return ds.Append(writeNext(ctx, srcStore, src))
}

// PushState replaces the selected workspace's state with data, a state
// file (encrypted as the configuration says, as errored.tfstate is, or
// not), under the state lock. As in Terraform it refuses a state of
// another lineage, or an older serial, than the one stored, unless force.
// The stored serial only ever grows: a state pushed with a serial not
// above the stored one is written with the next serial.
func (d *Dir) PushState(ctx context.Context, cfg *config.Module, data []byte, force bool, lock LockOptions) diag.Diagnostics {
	if enc, ds := EncryptionOf(cfg); !ds.HasErrors() && encryption.IsEncrypted(data) {
		var err error
		if data, err = enc.DecryptState(data); err != nil {
			return diag.Diagnostics{diag.Errorf("Failed to read the state file", "%s", err)}
		}
	}
	pushed, err := statefile.Parse(data)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to read the state file", "%s", err)}
	}
	// Only errors: what the backend warns of is said by the commands that
	// use the state.
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return ds
	}
	var warnings diag.Diagnostics
	if lock.Lock {
		unlock, ds := d.LockState(ctx, store, "OperationTypeInvalid", lock.Timeout)
		if ds.HasErrors() {
			return ds
		}
		defer unlock()
		// What a crashed run left in the journal is folded in first, so
		// that a state pulled before it (without those objects) is older
		// than the stored one and refused, not written over them.
		if _, warnings = d.readRecovered(ctx, store, false); warnings.HasErrors() {
			return warnings
		}
	}
	existing, err := store.Read(ctx)
	if err != nil {
		return warnings.Append(diag.Errorf("Failed to load state", "%s", err))
	}
	if bytes.Equal(existing, data) {
		return warnings
	}
	if len(existing) > 0 {
		if reason := importConflict(data, existing); reason != "" && !force {
			return warnings.Append(diag.Errorf("Failed to write state", "%s. Use -force to write it anyway.", reason))
		}
		if old, err := statefile.Parse(existing); err == nil && pushed.Serial <= old.Serial {
			pushed.Serial = old.Serial + 1
			if data, err = statefile.Marshal(pushed); err != nil {
				return diag.Diagnostics{diag.Errorf("Failed to write state", "%s", err)}
			}
		}
	}
	if err := store.Write(ctx, data); err != nil {
		return warnings.Append(diag.Errorf("Failed to write state", "%s", err))
	}
	return warnings
}

// NoStateMatch is OpenTofu's error of a state rm whose targets name no
// object of the state.
func NoStateMatch() diag.Diagnostic {
	return diag.Errorf("Invalid target address",
		"No matching objects found. To view the available instances, use \"rig state list\". Please modify the address to reference a specific instance.")
}

// MoveObjects moves what from names in src to to in dst (src itself, or
// another state): an instance to an instance, a resource's instances to
// another resource of its type, or a module's resources into another
// module path. It returns how many objects it moved, or, with dry, would
// move (then nothing moves).
func MoveObjects(src, dst *state.State, from, to StateTarget, dry bool) (int, diag.Diagnostics) {
	invalid := func(format string, a ...any) (int, diag.Diagnostics) {
		return 0, diag.Diagnostics{diag.Errorf("Invalid state move request", format, a...)}
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
		if !from.Matches(oa) {
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
		// As OpenTofu words it.
		return 0, diag.Diagnostics{diag.Errorf("Invalid source address", "Cannot move %s: does not match anything in the current state.", from.raw)}
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
	if dry {
		return len(moves), nil
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
	return len(moves), nil
}
