package workdir

import (
	"context"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// LegacyState holds the local backend's legacy options, -state, -state-out
// and -backup, as Terraform and OpenTofu take them.
type LegacyState struct {
	// Path is the state file read and written instead of the workspace's
	// (-state); "" for the workspace's.
	Path string
	// Out is the state file written instead of Path (-state-out).
	Out string
	// Backup is the backup file (-backup): "" for the file written with
	// ".backup" appended, "-" for none.
	Backup string
	// StampedBackup gives a state command's default backup: named after
	// the state file and the time it was taken,
	// terraform.tfstate.1700000000.backup, as OpenTofu's state mv, rm and
	// replace-provider name theirs.
	StampedBackup bool
	// AnyBackend makes -state name a local state file whatever backend
	// the configuration selects (the state commands, output and console);
	// otherwise -state is an error with another backend than local.
	AnyBackend bool
}

// Active reports whether the options change the local backend's files.
func (l LegacyState) Active() bool {
	return l.Path != "" || l.Out != "" || l.Backup != "" || l.StampedBackup
}

// legacyStateBackend is the backend a command uses with the legacy
// options: the local backend with their paths. Where the configuration
// selects another backend, -state names a local file for the commands that
// take it so (LegacyState.AnyBackend), and is an error for the others.
func (d *Dir) legacyStateBackend(cfg *config.Module) (backend.Backend, diag.Diagnostics) {
	b, ds := d.resolveBackend(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	legacy := d.opts.Legacy
	lb, isLocal := b.(*local.Backend)
	switch {
	case !isLocal && legacy.AnyBackend && legacy.Path != "":
		lb = local.New(d.root, local.Options{})
	case !isLocal && (legacy.Path != "" || legacy.Out != "" || legacy.Backup != ""):
		return nil, ds.Append(diag.Errorf("Legacy state options need the local backend",
			"-state, -state-out and -backup are legacy options of the local backend, and this working directory keeps its state in another backend. To work with a local state file, use \"rig state pull\" and \"rig state push\"."))
	case !isLocal:
		return b, ds // only the state commands' stamped backups were asked for
	}
	opts := local.Options{StatePath: legacy.Path, StateOutPath: legacy.Out, BackupPath: legacy.Backup}
	if legacy.StampedBackup && (opts.BackupPath == "" || opts.BackupPath == "-") {
		written := lb.With(opts).WrittenPath(d.Workspace())
		opts.BackupPath = fmt.Sprintf("%s.%d%s", written, time.Now().Unix(), local.BackupExtension)
	}
	return lb.With(opts), ds
}

// LegacyStateStore opens the state file at path as the legacy options
// given as values rather than flags would (state mv -state-out), backed
// up to backup.
func (d *Dir) LegacyStateStore(ctx context.Context, path, backup string) (backend.Store, error) {
	return local.New(d.root, local.Options{StatePath: path, BackupPath: backup}).Store(ctx, backend.DefaultWorkspace)
}
