package command

import (
	"context"
	"fmt"
	"io"
	"maps"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

func runInit(m *Meta, args []string) int {
	fs := m.flagSet("init")
	var backendFlags workdir.InitBackendOptions // -backend-config, -migrate-state, … (initflags.go)
	addInitBackendFlags(fs, &backendFlags)
	var f initFlags // -backend, -get, -plugin-dir, -upgrade, -lockfile (initflags.go)
	addInitFlags(fs, &f)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
	}
	if problem := checkInitAliases(fs); problem != "" {
		return m.argsError(fs, "Invalid init options", problem)
	}
	if !m.startStream(f.stream) {
		return 1
	}
	defer m.endStream()
	said := &sayingWriter{w: m.Out}
	m.Out = said
	if f.fromModule != "" {
		if ds := m.dir().InitFromModule(context.Background(), f.fromModule, m.Out); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	// As OpenTofu: the root module alone selects the backend, which is
	// initialized before the modules are installed; the backend's errors
	// are shown once the modules are.
	root, consts, ds := m.loadInitRoot(f.testDir)
	if ds.HasErrors() {
		m.initConfigProblems()
		m.showDiagnostics(ds)
		return 1
	}
	view := ui.InitView{W: m.Out, Color: m.Color, InAutomation: m.inAutomation, Stream: m.stream}
	if workdir.IsEmptyConfig(root) {
		// As OpenTofu: nothing to install, and nothing is written.
		m.showDiagnostics(ds)
		view.EmptyDirectory()
		return 0
	}
	var backendProblems diag.Diagnostics
	if f.backend && !consts.HasErrors() {
		if !said.said {
			// As OpenTofu: init's first step comes after a blank line.
			fmt.Fprintln(m.Out)
		}
		if root.Terraform != nil && root.Terraform.Cloud != nil {
			// As OpenTofu names the step for a cloud block.
			view.Heading("Initializing cloud backend...")
		} else {
			view.Heading("Initializing the backend...")
		}
		backendFlags.Out, backendFlags.Confirm = m.Out, m.confirm
		if m.stream != nil {
			backendFlags.Say = m.stream.Say
		}
		backendProblems = m.dir().InitBackend(context.Background(), root, &backendFlags)
	}
	if consts.HasErrors() {
		// The const variables' errors stop init before the backend, as
		// OpenTofu's errors of the root module do; the module step still
		// reports what the module sources' static evaluation finds.
		var more diag.Diagnostics
		if f.get {
			more = m.initModules(root, f.upgrade)
		}
		m.initConfigProblems()
		m.showDiagnostics(ds.Append(consts).Append(more))
		return 1
	}
	if f.get {
		if more := m.initModules(root, f.upgrade); more.HasErrors() {
			m.showDiagnostics(ds.Append(more))
			return 1
		}
	}
	if backendProblems.HasErrors() {
		m.showDiagnostics(ds.Append(backendProblems))
		return 1
	}
	cfg, more := m.loadCheckedConfig()
	if more.HasErrors() {
		m.initConfigProblems()
		m.showDiagnostics(more)
		return 1
	}
	// The root module's warnings were those of the configuration loaded
	// again, with its children's; the test files' are kept.
	testWarnings := testFileWarnings(ds)
	m.addDiagnosticSources(testWarnings)
	ds = more.Append(backendProblems).Append(testWarnings)
	placed, more := m.dir().PlaceProvidersFromState(context.Background(), cfg)
	if !f.backend && more.HasErrors() {
		// As OpenTofu: without the backend step, a backend that cannot be
		// opened yet (never initialized, or of a type rig lacks) has no
		// state to read providers from, and init goes on without one.
		placed, more = cfg, nil
	}
	cfg = placed
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	onlyInState, legacy, more := m.dir().ProvidersOnlyInState(context.Background(), cfg)
	if !f.backend && more.HasErrors() {
		onlyInState, more = nil, nil
	}
	if ds = ds.Append(more).Append(legacy); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	testReqs, more := m.dir().TestRequirements(cfg, f.testDir)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if f.upgrade && f.lockfileReadonly {
		// As OpenTofu: found at the provider step, and said as a line of
		// its own rather than a diagnostic.
		const conflict = "The -upgrade flag conflicts with -lockfile=readonly."
		if m.stream != nil {
			m.stream.Error(conflict)
		}
		if m.stream == nil || m.stream.Human {
			fmt.Fprintln(m.Err, conflict)
		}
		return 1
	}
	fmt.Fprintln(m.Out)
	view.Heading("Initializing provider plugins...")
	ds = ds.Append(m.dir().InstallProviders(context.Background(), cfg, workdir.InstallProvidersOptions{
		PluginDirs: f.pluginDirs, Upgrade: f.upgrade, LockfileReadonly: f.lockfileReadonly, Out: m.Out,
		StateProviders: onlyInState, TestRequirements: testReqs}))
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	// As OpenTofu: a blank line after the steps' lines, then the
	// warnings, each followed by a blank line, then the success.
	fmt.Fprintln(m.Out)
	m.showDiagnostics(ds)
	view.Initialized()
	return 0
}

// loadInitRoot loads the root module alone, with the modules its tests
// call (in testDir) among its calls: what init's backend and module steps
// start from. consts are the problems of its const variables, apart.
func (m *Meta) loadInitRoot(testDir string) (root *config.Module, consts, ds diag.Diagnostics) {
	root, ds = m.dir().LoadRootModule()
	if root != nil {
		m.sources = maps.Clone(root.Sources)
	}
	if ds.HasErrors() {
		return root, nil, ds
	}
	consts = root.SetStatic(nil, "", m.dir().StaticEvaluator())
	root, more := m.dir().WithTestModuleCalls(root, testDir)
	return root, consts, ds.Append(more)
}

// initModules is init's module step: it installs the modules root calls
// (registry modules and HTTP sources downloaded, git sources cloned, local
// ones recorded in place; tokens from the CLI configuration and TF_TOKEN_…
// variables) and writes .terraform/modules/modules.json as terraform and
// tofu do.
func (m *Meta) initModules(root *config.Module, upgrade bool) diag.Diagnostics {
	if len(root.ModuleCalls) == 0 {
		return nil
	}
	title := "Initializing modules..."
	if upgrade {
		title = "Upgrading modules..."
	}
	ui.InitView{W: m.Out, Color: m.Color, Stream: m.stream}.Heading(title)
	inst, more := m.dir().ModuleInstaller(upgrade, m.moduleProgress())
	if len(more) > 0 {
		m.showDiagnostics(more) // warnings about the credentials, shown once here
	}
	_, more = inst.Install(context.Background(), root)
	m.addDiagnosticSources(more)
	return more
}

// initConfigProblems heads the configuration errors that stop init, as
// OpenTofu heads them: init needs a valid configuration to know what to
// install. In the -json stream it is an "error" message of its own.
func (m *Meta) initConfigProblems() {
	if m.stream != nil {
		m.stream.InitConfigProblems()
		if !m.stream.Human {
			return
		}
	}
	ui.InitConfigProblems(m.Err, m.Color)
}

// sayingWriter is init's standard output, which remembers whether
// anything was written to it.
type sayingWriter struct {
	w    io.Writer
	said bool
}

func (s *sayingWriter) Write(p []byte) (int, error) {
	s.said = s.said || len(p) > 0
	return s.w.Write(p)
}

// testFileWarnings are the warnings among ds about test files that
// OpenTofu's init shows, with its other warnings: those of decoding their
// provider blocks (a version constraint there). Those OpenTofu gives only
// when it validates or runs the tests (two runs of one name) are left to
// validate and test.
func testFileWarnings(ds diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Severity == diag.Warning && d.Subject != nil && config.IsTestFile(d.Subject.Filename) && d.Summary == config.ProviderVersionDeprecated {
			out = out.Append(d)
		}
	}
	return out
}
