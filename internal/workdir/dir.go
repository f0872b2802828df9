package workdir

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/encryption"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
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
	// StartDir is the directory rig was started in, before any -chdir:
	// path.cwd, as OpenTofu gives it; "" for the process's working
	// directory.
	StartDir string
	// InAutomation is TF_IN_AUTOMATION set: rig runs under a wrapper that
	// shows its own next steps, so diagnostics leave out which command to
	// run next.
	InAutomation bool
	// CLIConfig is the CLI configuration (provider installation, registry
	// hosts, credentials, dev_overrides); nil for none. CLIConfigProblems
	// are what to report about it where it is used: all its diagnostics
	// if they were not shown already, else only an error saying it is
	// invalid, when it has errors.
	CLIConfig         *getproviders.CLIConfig
	CLIConfigProblems diag.Diagnostics
	// Log is rig's core log; nil when off. The working directory logs what
	// it loads, starts and writes, never a value.
	Log *corelog.Logger
	// Warnings receives what can only be reported as it happens, such as a
	// state lock that could not be released; nil discards it.
	Warnings io.Writer
	// LockWaiting is called once when acquiring the state lock takes
	// longer than LockWaitNotice (another run holds it), on another
	// goroutine while the caller waits; it has returned before the lock
	// is acquired or given up. nil says nothing.
	LockWaiting func()

	// NewBuiltinTerraform makes the built-in terraform provider, which
	// reads remote states with read; nil makes a builtin.Terraform. Tests
	// give their own (predictable ids, a provider that waits).
	NewBuiltinTerraform func(read builtin.RemoteStateReader) provider.Interface
	// TestProviders are in-process providers tests make available, used as
	// if dev_overrides named them; nil outside tests.
	TestProviders provider.Factories
	// ModuleHTTPClient sends the requests of module installation to
	// registries and HTTP sources; nil means getmodules' default. Tests
	// point it at their loopback servers.
	ModuleHTTPClient *http.Client
	// Vars are the command's -var and -var-file arguments, read when the
	// configuration's static expressions (module sources and versions,
	// backend and encryption settings) first need a root variable; nil
	// for none. Ask asks for a required one without a value; nil asks
	// nothing.
	Vars *[]VarArg
	Ask  Asker
	// QueryFiles loads the query files (*.tfquery.hcl) with the
	// configuration: their list blocks and the provider, variable and
	// locals blocks they declare (rig query, validate -query).
	QueryFiles bool
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
	// plugins are the plugin providers available, loaded on first use
	// (providers.go); nil again once init changed what is installed.
	plugins *pluginProviders
	// stateProviders are the providers the state names, when init has read
	// it to place providers the lock file does not record
	// (getproviders.RegistryHosts); nil otherwise.
	stateProviders []addrs.Provider
	// static is the configuration's static evaluator, given its root
	// variables (static.go); given are the root variables collected.
	static *eval.Static
	given  *givenVariables
}

// New returns the working directory root ("." for the process's) used as
// opts say. Nothing is read until a method needs it.
func New(root string, opts Options) *Dir {
	if opts.Warnings == nil {
		opts.Warnings = io.Discard
	}
	if opts.CLIConfig == nil {
		opts.CLIConfig = &getproviders.CLIConfig{}
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

// Env returns the run environment of a command without a session (Open
// builds a session's, adding rig.hcl's max_instances): the selected
// workspace and path.cwd.
func (d *Dir) Env() (lang.Env, diag.Diagnostics) {
	cwd, ds := d.Cwd()
	return lang.Env{Workspace: d.Workspace(), Cwd: cwd}, ds
}
