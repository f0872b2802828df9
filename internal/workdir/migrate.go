package workdir

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// InitBackendOptions are init's backend options, named as Terraform names
// them, and how init's backend step talks to the person running it.
type InitBackendOptions struct {
	// Configs are the -backend-config values, in order: KEY=VALUE, or the
	// path of a file of settings.
	Configs []string
	// Migrate (-migrate-state) copies the state of every workspace from
	// the previous backend to the new one.
	Migrate bool
	// Reconfigure uses the new backend as it is, ignoring any state in the
	// previous one.
	Reconfigure bool
	// ForceCopy (with Migrate) copies without asking, overwriting the
	// states in the new backend.
	ForceCopy bool
	// Lock says whether each pair of stores is locked while migrating.
	Lock LockOptions
	// Out receives what the step tells people (the migration of each
	// workspace, the backend configured).
	Out io.Writer
	// Say, when not nil, is where the step says what differs between the
	// words for people (text) and the message of a -json stream (msg);
	// else text goes to Out.
	Say func(text, msg string)
	// Confirm asks a yes/no question, with its explanation, before a state
	// in the new backend is overwritten; nil answers no.
	Confirm func(question, explanation string) bool
}

// InitBackend is init's backend step: it works out the backend the
// configuration and -backend-config select, compares it with the one
// recorded by the last init, migrates the state when asked to, and records
// the new one in .terraform/terraform.tfstate.
func (d *Dir) InitBackend(ctx context.Context, cfg *config.Module, f *InitBackendOptions) diag.Diagnostics {
	if c := cloudBlock(cfg); c != nil {
		return diag.Diagnostics{unsupportedCloud(c)}
	}
	want, block, ds := configuredSpec(cfg)
	if ds.HasErrors() {
		return ds
	}
	if len(f.Configs) > 0 {
		if block == nil {
			return ds.Append(diag.Errorf("Invalid backend configuration", "-backend-config was given, but the configuration has no backend block to apply it to."))
		}
		var more diag.Diagnostics
		want, more = applyBackendConfigFlags(want, f.Configs)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		want = want.withForm(want.Form)
	}
	if f.Migrate && f.Reconfigure {
		return ds.Append(diag.Errorf("Invalid init options", "-migrate-state and -reconfigure cannot be used together."))
	}
	prev, recorded, err := d.readBackendRecord()
	if err != nil {
		return ds.Append(diag.Errorf("Failed to read the backend configuration", "%s", err))
	}
	if !recorded {
		prev = implicitLocal()
	}
	if recorded && block != nil {
		if form, ok := prev.recordedFor(want); ok {
			if len(f.Configs) == 0 {
				// The block is unchanged: keep the -backend-config values
				// of the init that recorded it, as Terraform does.
				want.Settings = prev.Settings
			}
			// Keep recording the form the directory uses (Terraform's or
			// OpenTofu's hash) where it can hold the settings.
			want = want.withForm(form)
		}
	}
	if recorded && !prev.same(want) && !f.Reconfigure && !f.Migrate {
		// As OpenTofu: a backend recorded by an earlier init that the
		// configuration (or -backend-config) changes is kept until one of
		// the two options says what to do with its state, held or not.
		return ds.Append(backendChanged())
	}
	newB, more := d.openBackend(ctx, want)
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	if recorded && !prev.same(want) && f.Migrate {
		fmt.Fprint(f.Out, "Backend configuration changed!\n\nrig has detected that the configuration specified for the backend\nhas changed. rig will now check for existing state in the backends.\n")
	}
	if !prev.same(want) && !f.Reconfigure {
		oldB, more := d.openBackend(ctx, prev)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		has, err := hasState(ctx, oldB)
		if err != nil {
			return ds.Append(diag.Errorf("Failed to read the previous backend's state", "%s", err))
		}
		if has {
			if !f.Migrate {
				return ds.Append(backendChanged())
			}
			fmt.Fprintf(f.Out, "Migrating state from the %q backend to the %q backend...\n", prev.Type, want.Type)
			if ds = ds.Append(d.migrateState(ctx, oldB, newB, prev, want, f)); ds.HasErrors() {
				return ds
			}
		}
	}
	if err := d.writeBackendRecord(want); err != nil {
		return ds.Append(diag.Errorf("Failed to record the backend configuration", "%s", err))
	}
	if !prev.same(want) && !want.Implicit {
		text := fmt.Sprintf("\nSuccessfully configured the backend %q! rig will automatically\nuse this backend unless the backend configuration changes.\n", want.Type)
		if f.Say != nil {
			// As OpenTofu's message, without the full stop.
			f.Say(text, fmt.Sprintf("Successfully configured the backend %q! rig will automatically use this backend unless the backend configuration changes", want.Type))
		} else {
			io.WriteString(f.Out, text)
		}
	}
	return ds
}

// backendChanged is OpenTofu's error for a backend configuration that
// changed without -migrate-state or -reconfigure.
func backendChanged() diag.Diagnostic {
	return diag.Errorf("Backend configuration changed",
		"A change in the backend configuration has been detected, which may require migrating existing state.\n\n"+
			"If you wish to attempt automatic migration of the state, use \"rig init -migrate-state\".\n"+
			"If you wish to store the current configuration with no changes to the state, use \"rig init -reconfigure\".")
}

// hasState reports whether any workspace of b holds a state.
func hasState(ctx context.Context, b backend.Backend) (bool, error) {
	names, err := b.Workspaces(ctx)
	if err != nil {
		return false, err
	}
	for _, name := range names {
		s, err := b.Store(ctx, name)
		if err != nil {
			return false, err
		}
		data, err := s.Read(ctx)
		if err != nil {
			return false, err
		}
		if len(data) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// migrateState copies the state of every workspace of from to to, as the
// bytes it holds (lineage and serial unchanged), each pair of stores
// locked. A state already in the destination is overwritten only if it is
// an older snapshot of the same lineage, or with -force-copy, or when the
// user agrees. A local source's states are then emptied (their backups
// keep them), as Terraform does, so that nobody keeps using them.
func (d *Dir) migrateState(ctx context.Context, from, to backend.Backend, fromSpec, toSpec backendSpec, f *InitBackendOptions) diag.Diagnostics {
	names, err := from.Workspaces(ctx)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to list workspaces", "%s", err)}
	}
	erase := fromSpec.Type == "local" && toSpec.Type != "local"
	var ds diag.Diagnostics
	for _, name := range names {
		ds = ds.Append(d.migrateWorkspace(ctx, name, from, to, erase, f))
		if ds.HasErrors() {
			return ds
		}
	}
	return ds
}

func (d *Dir) migrateWorkspace(ctx context.Context, name string, from, to backend.Backend, erase bool, f *InitBackendOptions) diag.Diagnostics {
	src, err := from.Store(ctx, name)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to open state", "%s", err)}
	}
	dst, err := to.Store(ctx, name)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to open state", "%s", err)}
	}
	if f.Lock.Lock {
		for _, s := range []backend.Store{src, dst} {
			unlock, ds := d.LockState(ctx, s, "OperationTypeInvalid", f.Lock.Timeout)
			if ds.HasErrors() {
				return ds
			}
			defer unlock()
		}
	}
	data, err := src.Read(ctx)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to read state", "workspace %q: %s", name, err)}
	}
	if len(data) == 0 {
		return nil
	}
	existing, err := dst.Read(ctx)
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to read state", "workspace %q in the new backend: %s", name, err)}
	}
	if len(existing) > 0 && !bytes.Equal(existing, data) && !f.ForceCopy {
		if reason := importConflict(data, existing); reason != "" &&
			!f.confirm(fmt.Sprintf("Do you want to overwrite the state of workspace %q in the new backend?", name),
				"The new backend already holds a state for this workspace that the previous\nbackend's state would replace: "+reason+".\nOnly 'yes' will be accepted to overwrite it.") {
			return diag.Diagnostics{diag.Errorf("Migration stopped",
				"The new backend already holds a state for workspace %q that the migration would replace (%s). Use -force-copy to overwrite it, or -reconfigure to keep it and leave the previous state behind.", name, reason)}
		}
	}
	if !bytes.Equal(existing, data) {
		if err := dst.Write(ctx, data); err != nil {
			return diag.Diagnostics{diag.Errorf("Failed to write state", "workspace %q in the new backend: %s", name, err)}
		}
	}
	fmt.Fprintf(f.Out, "- workspace %q migrated\n", name)
	if erase {
		if err := src.Write(ctx, nil); err != nil {
			return diag.Diagnostics{diag.Errorf("Failed to empty the previous state", "workspace %q: %s", name, err)}
		}
	}
	return nil
}

// importConflict says why a state may not simply replace an existing one,
// as Terraform checks a state push: "" when the existing one is empty or an
// older snapshot of the same lineage.
func importConflict(data, existing []byte) string {
	newS, err := statefile.Parse(data)
	if err != nil {
		return fmt.Sprintf("the state to write is not valid: %s", err)
	}
	old, err := statefile.Parse(existing)
	if err != nil || old.Empty() {
		return ""
	}
	if old.Lineage != newS.Lineage {
		return fmt.Sprintf("cannot import state with lineage %q over unrelated state with lineage %q", newS.Lineage, old.Lineage)
	}
	if old.Serial > newS.Serial {
		return fmt.Sprintf("cannot import state with serial %d over newer state with serial %d", newS.Serial, old.Serial)
	}
	return ""
}

// confirm asks Confirm, or answers no without it.
func (f *InitBackendOptions) confirm(question, explanation string) bool {
	return f.Confirm != nil && f.Confirm(question, explanation)
}
