package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/encryption"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/getmodules"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/zclconf/go-cty/cty"
)

// Meta holds what every command shares: the streams, the global settings
// and the helpers that load configuration, state and providers.
type Meta struct {
	Streams
	// Color enables ANSI colors in human output (-no-color turns it off).
	Color bool
	// Input allows interactive prompts (-input=false turns it off).
	Input bool
	// view holds the output options every command accepts (viewflags.go).
	view viewOptions
	// legacy holds the local backend's -state, -state-out and -backup
	// (legacystate.go).
	legacy legacyState
	// stream is the JSON stream of a command without a plan, nil without
	// -json and -json-into (jsonstream.go).
	stream *commandStream
	// configDir is the directory the configuration is loaded from: ""
	// for the working directory (import -config=DIR names another).
	configDir string

	// startDir is the directory rig was started in, before any -chdir:
	// path.cwd, as OpenTofu gives it ("" when it could not be found).
	startDir string

	// sources are the configuration files loaded, for diagnostic snippets.
	sources map[string][]byte
	// plugins are the plugin providers available, loaded on first use
	// (providers.go).
	plugins *pluginProviders
	// stateProviders are the providers the state names, when init has read
	// it to place providers the lock file does not record
	// (getproviders.RegistryHosts); nil otherwise.
	stateProviders []addrs.Provider
	// encryption is the encryption configuration of the state store last
	// opened (stateStore), for errored.tfstate; nil when there is none.
	encryption *encryption.Encryption

	// writing counts the phases under way that change state or remote
	// objects (an apply's walk and final write, an import's write): while
	// one is, an interrupt stops rig gracefully; otherwise rig stops within
	// interruptGrace of the first interrupt, whatever it is computing.
	writing atomic.Int32
	// exitMu guards atExit, the cleanups (unlocking, stopping providers)
	// run before rig exits on an interrupt, and exiting.
	exitMu  sync.Mutex
	atExit  []func()
	exiting bool
	// exit ends the process; tests replace it.
	exit func(code int)

	// runEnv is what the environment says about every command (runenv.go):
	// the core log, the data directory, TF_IN_AUTOMATION, TF_INPUT, the
	// CLI configuration.
	runEnv
}

// interruptGrace is how long rig, interrupted outside any writing phase,
// lets the command finish on its own before it stops it.
var interruptGrace = 2 * time.Second

// beginWriting marks a phase that changes state or remote objects, until
// the returned function is called: an interrupt then stops rig only
// gracefully.
func (m *Meta) beginWriting() (end func()) {
	m.writing.Add(1)
	var once sync.Once
	return func() { once.Do(func() { m.writing.Add(-1) }) }
}

// onInterruptExit registers cleanup, run (once) if rig exits on an
// interrupt: releasing the state lock, stopping providers.
func (m *Meta) onInterruptExit(cleanup func()) {
	m.exitMu.Lock()
	defer m.exitMu.Unlock()
	m.atExit = append(m.atExit, cleanup)
}

// exitInterrupted runs the cleanups and exits with status 1, unless a
// writing phase began meanwhile.
func (m *Meta) exitInterrupted() {
	m.exitMu.Lock()
	if m.writing.Load() > 0 || m.exiting {
		m.exitMu.Unlock()
		return
	}
	m.exiting = true
	cleanups := m.atExit
	m.atExit = nil
	m.exitMu.Unlock()
	fmt.Fprintf(m.Err, "\nStopped: the command was interrupted before it changed anything.\n")
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	exit := m.exit
	if exit == nil {
		exit = os.Exit
	}
	exit(1)
}

// flagSet returns a flag set for a command that reports errors on stderr.
func (m *Meta) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(m.Err)
	fs.Var(boolFunc(func() { m.Color = false }), "no-color", "If specified, output won't contain any color.")
	fs.BoolVar(&m.Input, "input", true, "Disable interactive prompts: fail instead when a required variable has no value or an approval is needed.")
	m.addViewFlags(fs)
	return fs
}

// boolFunc is a flag.Value for a flag without a value that runs a function.
type boolFunc func()

func (f boolFunc) String() string   { return "" }
func (f boolFunc) IsBoolFlag() bool { return true }
func (f boolFunc) Set(s string) error {
	if s == "true" {
		f()
	}
	return nil
}

// showDiagnostics renders diagnostics on stderr (or as JSON when jsonView is set).
func (m *Meta) showDiagnostics(ds diag.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	m.renderDiags(m.Err, ds)
}

// renderDiagnostics writes diagnostics in OpenTofu's boxed form, or its
// plain form when colors are off (-no-color).
func renderDiagnostics(w io.Writer, ds diag.Diagnostics, sources map[string][]byte, color bool) {
	opts := ui.RenderOptions{Color: color}
	if color {
		_ = ui.RenderDiagnostics(w, ds, sources, opts)
	} else {
		_ = ui.RenderDiagnosticsPlain(w, ds, sources, opts)
	}
}

// loadConfig loads the configuration in the working directory, its
// providers whose source address names no registry host under the host the
// working directory records them with (registry.opentofu.org where OpenTofu
// initialized it; see getproviders.RegistryHosts).
func (m *Meta) loadConfig() (*config.Module, diag.Diagnostics) {
	hosts := m.registryHosts()
	dir := "."
	if m.configDir != "" {
		dir = m.configDir
	}
	start := time.Now()
	mod, ds := config.LoadTree(dir, config.TreeOptions{Resolve: m.installedModules(), ProviderHost: hosts.Provider})
	m.logConfig(mod, ds, time.Since(start))
	if mod != nil {
		// A copy: variable and settings files shown in diagnostics are
		// not part of the configuration (a saved plan records its files).
		m.sources = maps.Clone(mod.Sources)
	}
	return mod, ds
}

// isEmptyConfig reports whether mod was loaded from a directory without a
// configuration file (.tf, .tf.json, .tofu, .tofu.json). As in OpenTofu,
// init and validate accept such a directory, and so do destroys (of
// whatever the state holds); plan, apply, import and providers refuse it
// (noConfigurationDiag).
func isEmptyConfig(mod *config.Module) bool { return mod != nil && len(mod.Sources) == 0 }

// noConfigurationDiag is the error of a command that needs a configuration
// run in a directory without one: what says which command.
func noConfigurationDiag(what string) diag.Diagnostic {
	switch what {
	case "OperationTypePlan":
		return diag.Errorf("No configuration files", "Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a rig configuration file (.tf file) and try again.")
	case "OperationTypeApply":
		return diag.Errorf("No configuration files", "Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'rig destroy' instead.")
	}
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return diag.Errorf("No configuration files", "The directory %s contains no rig configuration files (.tf, .tf.json, .tofu or .tofu.json).", dir)
}

// workingDir returns path.cwd: the absolute directory rig was started in,
// before any -chdir (the configuration is read after it), with forward
// slashes, as OpenTofu gives it.
func (m *Meta) workingDir() (string, diag.Diagnostics) {
	wd, err := m.startDir, error(nil)
	if wd == "" {
		wd, err = os.Getwd()
	}
	if err == nil {
		wd, err = filepath.Abs(wd)
	}
	if err != nil {
		return "", diag.Diagnostics{diag.Errorf("Failed to get the working directory", "rig could not find the absolute path of its working directory, which path.cwd stands for: %s.", err)}
	}
	return filepath.ToSlash(wd), nil
}

// loadCheckedConfig is loadConfig for the commands that work with the
// configuration (init, validate, graph and the operations): a configuration
// that loads without errors must also accept the OpenTofu version rig
// stands in for, in every module's required_version, and every provider
// block's for_each must be one a static evaluation can compute (as
// OpenTofu checks while loading).
func (m *Meta) loadCheckedConfig() (*config.Module, diag.Diagnostics) {
	cfg, ds := m.loadConfig()
	if cfg != nil && !ds.HasErrors() {
		ds = ds.Append(cfg.CheckCoreVersion())
		for _, mod := range cfg.AllModules() {
			for _, key := range slices.Sorted(maps.Keys(mod.ProviderConfigs)) {
				ds = ds.Append(eval.CheckProviderForEach(mod, mod.ProviderConfigs[key]))
			}
		}
	}
	return cfg, ds
}

// installedModules resolves the sources of module calls that are not local
// paths through the manifest `rig init` (or terraform/tofu init) wrote in
// .terraform/modules (modules in TF_DATA_DIR).
func (m *Meta) installedModules() config.ModuleDirResolver {
	modulesDir := m.dataPath("modules")
	var (
		once     sync.Once
		manifest getmodules.Manifest
		err      error
	)
	return func(key string, call *config.ModuleCall) (string, diag.Diagnostics) {
		once.Do(func() { manifest, err = getmodules.ReadManifest(modulesDir) })
		if err != nil {
			return "", diag.Diagnostics{diag.At(call.DeclRange, "Failed to read module manifest", err.Error())}
		}
		rec, ok := manifest.Record(key)
		if !ok {
			return "", diag.Diagnostics{config.NotInstalledDiag(call, key)}
		}
		if src, perr := getmodules.ParseSource(call.Source); perr == nil && !src.Matches(rec.Source) {
			return "", diag.Diagnostics{diag.At(call.SourceRange, "Module source has changed",
				fmt.Sprintf("The source address was changed from %q to %q since this module was installed. Run \"rig init\" to install all modules required by this configuration.", rec.Source, src.String()))}
		}
		dir := filepath.FromSlash(rec.Dir)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return "", diag.Diagnostics{diag.At(call.DeclRange, "Module not installed",
				fmt.Sprintf("This module's local cache directory %s could not be read. Run \"rig init\" to install all modules required by this configuration.", rec.Dir))}
		}
		if ds := installedVersionAllowed(call, rec); ds.HasErrors() {
			return "", ds
		}
		return dir, nil
	}
}

// installedVersionAllowed reports, as OpenTofu does, a module call whose
// version constraint no longer allows the version init installed (or that
// has one where init installed a module without a version).
func installedVersionAllowed(call *config.ModuleCall, rec getmodules.Record) diag.Diagnostics {
	if strings.TrimSpace(call.Version) == "" {
		return nil
	}
	constraints, err := getproviders.ParseConstraints(call.Version)
	if err != nil {
		return nil // init reports the constraint
	}
	const advice = " Run \"rig init\" to install all modules required by this configuration."
	if rec.Version == "" {
		return diag.Diagnostics{diag.At(call.SourceRange, "Module version requirements have changed",
			"The version requirements have changed since this module was installed and the installed version is no longer acceptable."+advice)}
	}
	if v, err := getproviders.ParseVersion(rec.Version); err == nil && !constraints.Allows(v) {
		return diag.Diagnostics{diag.At(call.SourceRange, "Module version requirements have changed",
			fmt.Sprintf("The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable.", rec.Version)+advice)}
	}
	return nil
}

// workspace returns the selected workspace: TF_WORKSPACE, else the one
// recorded by `rig workspace select` (the data directory's environment
// file), else "default".
func (m *Meta) workspace() string {
	if ws := os.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	if b, err := os.ReadFile(m.dataPath("environment")); err == nil {
		if ws := strings.TrimSpace(string(b)); ws != "" {
			return ws
		}
	}
	return "default"
}

// backendFor returns the state backend the configuration selects (see
// resolveBackend in backendconfig.go: the backend `rig init` recorded).
func (m *Meta) backendFor(cfg *config.Module) (backend.Backend, diag.Diagnostics) {
	if m.legacy.active() {
		return m.legacyStateBackend(cfg)
	}
	return m.resolveBackend(cfg)
}

// stateStore opens the state store of the selected workspace.
func (m *Meta) stateStore(ctx context.Context, cfg *config.Module) (backend.Store, diag.Diagnostics) {
	b, ds := m.backendFor(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	enc, more := encryptionOf(cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, ds
	}
	store, err := b.Store(ctx, m.workspace())
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to open state", "%s", err))
	}
	m.log.Debug("state store opened", corelog.String("workspace", m.workspace()), corelog.String("path", store.Path()))
	if m.log.Enabled(corelog.Info) {
		store = loggedStore{Store: store, log: m.log}
	}
	m.encryption = enc
	if enc != nil {
		store = encryptedStore{Store: store, enc: enc}
	}
	return store, ds
}

// readState reads the workspace's state. No state, or one that is empty
// or only white space, is an empty state, as in OpenTofu.
func readState(ctx context.Context, store backend.Store) (*state.State, diag.Diagnostics) {
	data, err := store.Read(ctx)
	if err != nil {
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "%s", err)}
	}
	s, err := statefile.Parse(data)
	switch {
	case errors.Is(err, statefile.ErrEmpty):
		return state.New(), nil
	case err != nil && encryption.IsEncrypted(data):
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "%s is encrypted, and the configuration has no encryption block with a state target to decrypt it. The state was left untouched.", store.Path())}
	case err != nil:
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "Reading %s: %s. The state was left untouched.", store.Path(), err)}
	}
	return s, nil
}

// lockState takes the state lock for an operation, waiting up to timeout.
func (m *Meta) lockState(ctx context.Context, store backend.Store, operation string, timeout time.Duration) (unlock func(), ds diag.Diagnostics) {
	info := backend.NewLockInfo(operation)
	id, err := backend.LockWithTimeout(ctx, store, info, timeout)
	if err != nil {
		var le *backend.LockError
		detail := err.Error()
		if errors.As(err, &le) {
			detail = le.Error()
		}
		return nil, diag.Diagnostics{diag.Errorf("Error acquiring the state lock", "%s\n\nrig acquires a state lock to protect the state from being written by multiple users at the same time. Please resolve the issue above and try again. For most commands, you can disable locking with the \"-lock=false\" flag, but this is not recommended.", detail)}
	}
	m.log.Debug("state locked", corelog.String("path", store.Path()), corelog.String("operation", operation), corelog.String("lock_id", id))
	return func() {
		if err := store.Unlock(context.Background(), id); err != nil {
			fmt.Fprintf(m.Err, "Error releasing the state lock: %s\n", err)
			return
		}
		m.log.Debug("state unlocked", corelog.String("path", store.Path()), corelog.String("lock_id", id))
	}, nil
}

// newBuiltinTerraform starts the built-in terraform provider, which reads
// remote states with readRemoteState; tests replace it to get predictable
// ids.
var newBuiltinTerraform = func() provider.Interface {
	return &builtin.Terraform{ReadRemoteState: readRemoteState}
}

// providerFactories returns every provider rig can start: the built-in
// terraform provider, the plugins `rig init` installed and locked (each
// checked against the lock's hashes), dev_overrides and
// TF_REATTACH_PROVIDERS (see providers.go; checkProviders reports what is
// missing).
func (m *Meta) providerFactories() provider.Factories {
	f := provider.Factories{}
	for p, pf := range m.loadPluginProviders().factories {
		f[p] = pf
	}
	f[addrs.NewBuiltInProvider("terraform")] = func() (provider.Interface, error) {
		p := newBuiltinTerraform()
		if t, ok := p.(*builtin.Terraform); ok && t.ReadRemoteState != nil {
			read := t.ReadRemoteState
			t.ReadRemoteState = func(ctx context.Context, req builtin.RemoteStateRequest) (map[string]cty.Value, diag.Diagnostics) {
				return read(withRemoteStateEncryption(ctx, m.encryption), req)
			}
		}
		return p, nil
	}
	return m.loggedFactories(f)
}

// interruptible returns a context cancelled on the first SIGINT/SIGTERM; a
// second signal calls onForce (which should stop providers).
func (m *Meta) interruptible(onForce func()) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, sigterm)
	done := make(chan struct{})
	go func() {
		count := 0
		for {
			select {
			case <-done:
				return
			case <-sigs:
				count++
				if count == 1 {
					fmt.Fprintf(m.Err, "\nInterrupt received.\nPlease wait for rig to exit or data loss may occur.\nGracefully shutting down...\n")
					cancel()
					// Outside a writing phase nothing is lost by stopping:
					// a computation that does not notice the cancellation
					// (parsing, evaluating, rendering) is cut short.
					go func() {
						select {
						case <-done:
						case <-time.After(interruptGrace):
							m.exitInterrupted()
						}
					}()
				} else {
					fmt.Fprintf(m.Err, "\nTwo interrupts received. Stopping running operations now; state is saved.\n")
					if onForce != nil {
						onForce()
					}
				}
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// confirm asks a yes/no question; only "yes" approves.
func (m *Meta) confirm(question, explanation string) bool {
	if !m.inputAllowed() {
		return false
	}
	fmt.Fprintf(m.Out, "\n%s\n", question)
	for _, line := range strings.Split(explanation, "\n") {
		fmt.Fprintf(m.Out, "  %s\n", line)
	}
	fmt.Fprintf(m.Out, "\n  Enter a value: ")
	answer, _ := readLine(m.In)
	fmt.Fprintln(m.Out)
	return strings.TrimSpace(answer) == "yes"
}

// readLine reads one line without buffering past it.
func readLine(r io.Reader) (string, error) {
	if r == nil {
		return "", io.EOF
	}
	var b []byte
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if buf[0] == '\n' {
				return string(b), nil
			}
			b = append(b, buf[0])
		}
		if err != nil {
			return string(b), err
		}
	}
}
