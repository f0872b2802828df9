package workdir

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/encryption"
)

// DefaultDataDir is where rig keeps a working directory's own data, as
// Terraform and OpenTofu do: installed modules and providers, the backend
// record, the selected workspace, rig's timeline.
const DefaultDataDir = ".terraform"

// Options say how a working directory is used: what the environment and
// the global options say, the same for every command of a run, and what
// the command's own options say about the state (Legacy, ConfigDir).
type Options struct {
	// DataDir is TF_DATA_DIR: the directory used instead of .terraform,
	// relative to the working directory; "" for DefaultDataDir.
	DataDir string
	// ConfigDir is the directory the configuration is loaded from instead
	// of the working directory, whose state and backend are still used
	// (import -config); "" for the working directory.
	ConfigDir string
	// Legacy are the local backend's -state, -state-out and -backup.
	Legacy LegacyState
	// Log is rig's core log; nil when off. The working directory logs what
	// it loads, starts and writes, never a value.
	Log *corelog.Logger
	// Warnings receives what can only be reported as it happens, such as a
	// state lock that could not be released; nil discards it.
	Warnings io.Writer
}

// Dir is a working directory as a command uses it: the configuration and
// the data `rig init` recorded (.terraform, or TF_DATA_DIR), the state its
// backend keeps, and the files rig reads beside the configuration. Its
// methods load and open what a command asks for; Open prepares everything
// an operation needs at once (a Session). A Dir caches what it has read
// for the command that made it, and is not safe for concurrent use.
type Dir struct {
	// root is the working directory; paths rig records are relative to it.
	root string
	opts Options
	// encryption is the encryption configuration of the state store last
	// opened (StateStore), for errored.tfstate and the states
	// terraform_remote_state reads; nil when there is none.
	encryption *encryption.Encryption
}

// New returns the working directory root ("." for the process's) used as
// opts say. Nothing is read until a method needs it.
func New(root string, opts Options) *Dir {
	if opts.Warnings == nil {
		opts.Warnings = io.Discard
	}
	return &Dir{root: root, opts: opts}
}

// path returns the path of name, relative to the working directory,
// unchanged when name is absolute or the working directory is ".".
func (d *Dir) path(name string) string {
	if d.root == "." || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(d.root, name)
}

// DataDir returns the directory of the working directory's data:
// TF_DATA_DIR, else .terraform.
func (d *Dir) DataDir() string {
	if d.opts.DataDir != "" {
		return d.path(d.opts.DataDir)
	}
	return d.path(DefaultDataDir)
}

// DataPath returns the path of elem inside the data directory.
func (d *Dir) DataPath(elem ...string) string {
	return filepath.Join(append([]string{d.DataDir()}, elem...)...)
}

// Workspace returns the selected workspace: TF_WORKSPACE, else the one
// recorded by `rig workspace select` (the data directory's environment
// file), else "default".
func (d *Dir) Workspace() string {
	if ws := os.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	if b, err := os.ReadFile(d.DataPath("environment")); err == nil {
		if ws := strings.TrimSpace(string(b)); ws != "" {
			return ws
		}
	}
	return "default"
}

// SelectWorkspace records the selected workspace as Terraform does, in
// the data directory's file environment.
func (d *Dir) SelectWorkspace(name string) error {
	if err := os.MkdirAll(d.DataDir(), 0o755); err != nil {
		return err
	}
	return os.WriteFile(d.DataPath("environment"), []byte(name), 0o644)
}
