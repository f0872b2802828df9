package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/rig-iac/rig/internal/backend"
)

// Default file and directory names, as Terraform uses them.
const (
	DefaultStateFilename = "terraform.tfstate"
	DefaultWorkspaceDir  = "terraform.tfstate.d"
	BackupExtension      = ".backup"
)

// Options configure a local backend; the zero value is Terraform's default
// layout. Relative paths are relative to the backend's directory.
type Options struct {
	// Path is the default workspace's state file (the local backend's
	// `path` setting); "" means terraform.tfstate.
	Path string
	// WorkspaceDir holds one directory per other workspace (the local
	// backend's `workspace_dir` setting); "" means terraform.tfstate.d.
	WorkspaceDir string
	// StatePath, when set, is the state file of every workspace, overriding
	// Path and WorkspaceDir, as Terraform's -state flag does.
	StatePath string
	// StateOutPath, when set, is where every workspace's state is written
	// instead of the file it is read from (Terraform's -state-out flag).
	StateOutPath string
	// BackupPath is where the backup goes (Terraform's -backup flag): ""
	// means the written state file's path with ".backup" appended, "-"
	// means no backup.
	BackupPath string
}

// Backend is the local backend. It holds no open files; it is safe for
// concurrent use.
type Backend struct {
	dir  string
	opts Options
}

var _ backend.Backend = (*Backend)(nil)

// New returns the local backend rooted at dir.
func New(dir string, opts Options) *Backend { return &Backend{dir: dir, opts: opts} }

func (b *Backend) path(p, def string) string {
	if p == "" {
		p = def
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(b.dir, p)
}

// With returns a copy of b with o's StatePath, StateOutPath and
// BackupPath (the legacy command-line options); o's other fields are
// ignored, b's kept.
func (b *Backend) With(o Options) *Backend {
	opts := b.opts
	opts.StatePath, opts.StateOutPath, opts.BackupPath = o.StatePath, o.StateOutPath, o.BackupPath
	return &Backend{dir: b.dir, opts: opts}
}

// WrittenPath returns the file a workspace's state is written to: the
// StateOutPath, or the file it is read from.
func (b *Backend) WrittenPath(workspace string) string {
	if b.opts.StateOutPath != "" {
		return b.path(b.opts.StateOutPath, "")
	}
	return b.StatePath(workspace)
}

func (b *Backend) workspaceDir() string { return b.path(b.opts.WorkspaceDir, DefaultWorkspaceDir) }

// StatePath returns the state file of a workspace.
func (b *Backend) StatePath(workspace string) string {
	switch {
	case b.opts.StatePath != "":
		return b.path(b.opts.StatePath, "")
	case workspace == backend.DefaultWorkspace:
		return b.path(b.opts.Path, DefaultStateFilename)
	}
	return filepath.Join(b.workspaceDir(), workspace, DefaultStateFilename)
}

// backupPath returns the backup file for a state file, or "" for none.
func (b *Backend) backupPath(statePath string) string {
	switch b.opts.BackupPath {
	case "-":
		return ""
	case "":
		return statePath + BackupExtension
	}
	return b.path(b.opts.BackupPath, "")
}

// Workspaces implements backend.Backend: "default" and each directory under
// the workspace directory whose name is a valid workspace name.
func (b *Backend) Workspaces(ctx context.Context) ([]string, error) {
	names := []string{backend.DefaultWorkspace}
	entries, err := os.ReadDir(b.workspaceDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("listing workspaces in %s: %w", b.workspaceDir(), err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != backend.DefaultWorkspace && backend.ValidateWorkspaceName(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// DeleteWorkspace implements backend.Backend by removing the workspace's
// directory and everything in it.
func (b *Backend) DeleteWorkspace(ctx context.Context, name string) error {
	if name == backend.DefaultWorkspace {
		return backend.ErrDefaultWorkspace
	}
	if err := backend.ValidateWorkspaceName(name); err != nil {
		return err
	}
	dir := filepath.Join(b.workspaceDir(), name)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("deleting workspace %q: %w", name, backend.ErrWorkspaceNotFound)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	return syncDir(b.workspaceDir())
}

// Store implements backend.Backend.
func (b *Backend) Store(ctx context.Context, workspace string) (backend.Store, error) {
	if err := backend.ValidateWorkspaceName(workspace); err != nil {
		return nil, err
	}
	p := b.StatePath(workspace)
	dir, base := filepath.Split(p)
	st := &Store{
		path:       p,
		backupPath: b.backupPath(p),
		lockPath:   filepath.Join(dir, "."+base+".lock.info"),
	}
	if out := b.path(b.opts.StateOutPath, ""); b.opts.StateOutPath != "" && out != p {
		st.outPath, st.backupPath = out, b.backupPath(out)
	}
	return st, nil
}
