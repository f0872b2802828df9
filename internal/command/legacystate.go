package command

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// legacyState holds the local backend's legacy options, -state, -state-out
// and -backup, as Terraform and OpenTofu take them.
type legacyState struct {
	// path is the state file read and written instead of the workspace's
	// (-state); "" for the workspace's.
	path string
	// out is the state file written instead of path (-state-out).
	out string
	// backup is the backup file (-backup): "" for the file written with
	// ".backup" appended, "-" for none.
	backup string
	// stampedBackup gives a state command's default backup: named after
	// the state file and the time it was taken,
	// terraform.tfstate.1700000000.backup, as OpenTofu's state mv, rm and
	// replace-provider name theirs.
	stampedBackup bool
	// anyBackend makes -state name a local state file whatever backend
	// the configuration selects (the state commands, output and console);
	// otherwise -state is an error with another backend than local.
	anyBackend bool
}

// active reports whether the options change the local backend's files.
func (l legacyState) active() bool {
	return l.path != "" || l.out != "" || l.backup != "" || l.stampedBackup
}

// legacyFlags says which of the legacy options a command takes.
type legacyFlags uint8

const (
	// legacyStateOnly is -state alone (output, console, state list, state show).
	legacyStateOnly legacyFlags = iota
	// legacyStateBackup is -state and -backup (state rm, state replace-provider).
	legacyStateBackup
	// legacyAll is -state, -state-out and -backup (the operations, import,
	// taint, untaint, state mv).
	legacyAll
)

// addLegacyStateFlags defines the local backend's legacy options a
// command takes.
func (m *Meta) addLegacyStateFlags(fs *flag.FlagSet, which legacyFlags) {
	fs.StringVar(&m.legacy.path, "state", "", "Legacy option for the local backend only: read (and write) the state in the file at `PATH` instead of the selected workspace's state file.")
	if which == legacyStateOnly {
		return
	}
	if which == legacyAll {
		fs.StringVar(&m.legacy.out, "state-out", "", "Legacy option for the local backend only: write the state to the file at `PATH` instead of the file it was read from, which stays as it was.")
	}
	fs.StringVar(&m.legacy.backup, "backup", "", "Legacy option for the local backend only: back up the state file, as it was before rig first wrote it, to the file at `PATH` (\"-\" for no backup). By default the backup is the state file's path with \".backup\" appended.")
}

// legacyStateBackend is the backend a command uses with the legacy
// options: the local backend with their paths. Where the configuration
// selects another backend, -state names a local file for the commands that
// take it so (legacyState.anyBackend), and is an error for the others.
func (m *Meta) legacyStateBackend(cfg *config.Module) (backend.Backend, diag.Diagnostics) {
	b, ds := m.resolveBackend(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	lb, isLocal := b.(*local.Backend)
	switch {
	case !isLocal && m.legacy.anyBackend && m.legacy.path != "":
		lb = local.New(".", local.Options{})
	case !isLocal && (m.legacy.path != "" || m.legacy.out != "" || m.legacy.backup != ""):
		return nil, ds.Append(diag.Errorf("Legacy state options need the local backend",
			"-state, -state-out and -backup are legacy options of the local backend, and this working directory keeps its state in another backend. To work with a local state file, use \"rig state pull\" and \"rig state push\"."))
	case !isLocal:
		return b, ds // only the state commands' stamped backups were asked for
	}
	opts := local.Options{StatePath: m.legacy.path, StateOutPath: m.legacy.out, BackupPath: m.legacy.backup}
	if m.legacy.stampedBackup && (opts.BackupPath == "" || opts.BackupPath == "-") {
		written := lb.With(opts).WrittenPath(m.workspace())
		opts.BackupPath = fmt.Sprintf("%s.%d%s", written, time.Now().Unix(), local.BackupExtension)
	}
	return lb.With(opts), ds
}

// stateSavedNote is what apply says after writing the state to the file
// -state-out names, when it added or changed something, as OpenTofu says it.
func (m *Meta) stateSavedNote(added, changed int) {
	if m.legacy.out == "" || added+changed == 0 {
		return
	}
	fmt.Fprintf(m.Out, "\nThe state of your infrastructure has been saved to the path below. This state\nis required to modify and destroy your infrastructure, so keep it safe. To\ninspect the complete state use the `rig show` command.\n\nState path: %s\n", m.legacy.out)
}

// legacyStateStore opens a state store for the legacy options given as
// values rather than flags (state mv between two files).
func legacyStateStore(ctx context.Context, path, backup string) (backend.Store, error) {
	return local.New(".", local.Options{StatePath: path, BackupPath: backup}).Store(ctx, backend.DefaultWorkspace)
}
