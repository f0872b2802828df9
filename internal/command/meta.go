package command

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/interrupt"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
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
	legacy workdir.LegacyState
	// stream is the JSON stream of a command without a plan, nil without
	// -json and -json-into (jsonstream.go).
	stream *ui.CommandStream
	// op is the view of a plan, apply or other operation once it has
	// one (view.go), nil before.
	op *ui.OperationView
	// documentOut says that standard output carries a machine-readable
	// document (JSON, a graph): warnings go to standard error with the
	// errors, so as not to spoil it.
	documentOut bool
	// configDir is the directory the configuration is loaded from: ""
	// for the working directory (import -config=DIR names another).
	configDir string

	// startDir is the directory rig was started in, before any -chdir:
	// path.cwd, as OpenTofu gives it ("" when it could not be found).
	startDir string
	// sources are the configuration files loaded, for diagnostic snippets.
	sources map[string][]byte
	// wd is the working directory, made once the command's options are
	// parsed (dir).
	wd *workdir.Dir
	// varArgs are the command's -var and -var-file arguments, nil for a
	// command without them (staticvars.go).
	varArgs *[]workdir.VarArg
	// queryFiles loads the query files with the configuration (query,
	// validate -query).
	queryFiles bool

	// interrupts is how the command stops when interrupted.
	interrupts *interrupt.Handler

	// runEnv is what the environment says about every command (runenv.go):
	// the core log, the data directory, TF_IN_AUTOMATION, TF_INPUT, the
	// CLI configuration.
	runEnv
}

// dir returns the working directory, used as the environment and the
// command's options say. It is made on first use, which must come after
// the command's flags are parsed.
func (m *Meta) dir() *workdir.Dir {
	if m.wd == nil {
		cli, problems := m.cliConfig()
		m.wd = workdir.New(".", workdir.Options{
			DataDir: m.dataDirEnv, ConfigDir: m.configDir, Legacy: m.legacy, StartDir: m.startDir,
			InAutomation: m.inAutomation, CLIConfig: cli, CLIConfigProblems: problems, Log: m.log, Warnings: m.Err, LockWaiting: m.sayAcquiringLock,
			NewBuiltinTerraform: newBuiltinTerraform, TestProviders: testFactories, ModuleHTTPClient: moduleHTTPClient,
			Vars: m.varArgs, Ask: m.staticAsk, QueryFiles: m.queryFiles,
		})
	}
	return m.wd
}

// testFactories are in-process providers tests make available to every
// command, used as if dev_overrides named them; nil outside tests.
var testFactories provider.Factories

// moduleHTTPClient is the client module installation uses for registries
// and HTTP sources; nil means getmodules' default. Tests point it at their
// loopback servers.
var moduleHTTPClient *http.Client

// flagSet returns a flag set for a command that reports errors on stderr.
func (m *Meta) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(m.Err)
	m.view.separated = separatedDiagnostics[name]
	fs.Var(cliargs.NewBool(func(on bool) { m.Color = m.Color && !on }, nil), "no-color", "If specified, output won't contain any color.")
	m.Input = true
	if !refusesInputFlag[name] {
		fs.BoolVar(&m.Input, "input", true, "Disable interactive prompts: fail instead when a required variable has no value or an approval is needed.")
	}
	m.addViewFlags(fs)
	return fs
}

// showDiagnostics renders diagnostics, warnings on stdout and errors on
// stderr (or as JSON when jsonView is set).
func (m *Meta) showDiagnostics(ds diag.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	m.renderDiagsSplit(ds)
}

// loadConfig loads the working directory's configuration
// (workdir.Dir.LoadConfig); its files are the sources of the diagnostics
// shown after.
func (m *Meta) loadConfig() (*config.Module, diag.Diagnostics) {
	return m.withSources(m.dir().LoadConfig())
}

// loadCheckedConfig is loadConfig for the commands that work with the
// configuration (workdir.Dir.LoadCheckedConfig).
func (m *Meta) loadCheckedConfig() (*config.Module, diag.Diagnostics) {
	return m.withSources(m.dir().LoadCheckedConfig())
}

// withSources makes the files of mod the sources of the diagnostics shown
// after: a copy, for variable and settings files shown in diagnostics are
// not part of the configuration (a saved plan records its files).
func (m *Meta) withSources(mod *config.Module, ds diag.Diagnostics) (*config.Module, diag.Diagnostics) {
	if mod != nil {
		m.sources = maps.Clone(mod.Sources)
	}
	return mod, ds
}

// newBuiltinTerraform starts the built-in terraform provider, which reads
// remote states with read; nil means workdir's default. Tests replace it
// to get predictable ids.
var newBuiltinTerraform func(read builtin.RemoteStateReader) provider.Interface

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
