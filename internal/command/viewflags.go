package command

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ui"
)

// viewOptions are the output options every command accepts, as every
// OpenTofu 1.12 command does: how diagnostics are condensed, whether
// progress is reported, which deprecation warnings are shown, and whether
// sensitive values are shown (only the commands that define
// -show-sensitive set it).
type viewOptions struct {
	// compactWarnings shows a list of only warnings as their summaries.
	compactWarnings bool
	// splitWarnings shows every warning on its own (-consolidate-warnings=false);
	// by default warnings with the same summary are shown once.
	splitWarnings bool
	// consolidateErrors shows errors with the same summary once.
	consolidateErrors bool
	// concise leaves out progress messages (refreshing, creating, still
	// creating, provisioner output).
	concise bool
	// deprecation selects the deprecation warnings shown (-deprecation).
	deprecation ui.DeprecationLevel
	// showSensitive shows sensitive values instead of hiding them.
	showSensitive bool
	// separated follows each diagnostic with a blank line, as the
	// command's OpenTofu counterpart writes them (separatedDiagnostics).
	separated bool
}

// viewFlagNames are the flags addViewFlags defines, which every command
// accepts; help lists them only for the commands in diagnosticCommands.
var viewFlagNames = []string{"compact-warnings", "consolidate-warnings", "consolidate-errors", "concise", "deprecation"}

// addViewFlags defines the output options every command accepts.
func (m *Meta) addViewFlags(fs *flag.FlagSet) {
	fs.BoolVar(&m.view.compactWarnings, "compact-warnings", false, "If rig produces warnings and no error, show them in a compact form that includes only their summaries and where they are.")
	fs.Var(cliargs.NewBool(func(on bool) { m.view.splitWarnings = !on }, func() bool { return !m.view.splitWarnings }), "consolidate-warnings",
		"Show the warnings that share a summary once, saying how many more there are elsewhere (the default); -consolidate-warnings=false shows each of them.")
	fs.BoolVar(&m.view.consolidateErrors, "consolidate-errors", false, "Show the errors that share a summary once, saying how many more there are elsewhere.")
	fs.BoolVar(&m.view.concise, "concise", false, "Leave out progress messages: refreshing, creating, still creating, and provisioner output.")
	fs.Func("deprecation", "Which deprecation warnings about module variables and outputs to show: `module:LEVEL`, where LEVEL is all (the default), local (not those of modules installed from a registry or another remote source) or none.", func(s string) error {
		level, ok := strings.CutPrefix(s, "module:")
		switch {
		case !ok:
		case level == "all", level == "": // as OpenTofu takes module: alone
			m.view.deprecation = ui.DeprecationAll
			return nil
		case level == "local":
			m.view.deprecation = ui.DeprecationLocal
			return nil
		case level == "none":
			m.view.deprecation = ui.DeprecationNone
			return nil
		}
		return fmt.Errorf("want module:all, module:local or module:none")
	})
}

// addShowSensitiveFlag defines -show-sensitive, for the commands that
// render values.
func (m *Meta) addShowSensitiveFlag(fs *flag.FlagSet) {
	fs.BoolVar(&m.view.showSensitive, "show-sensitive", false, "Show sensitive values instead of hiding them.")
}

// renderOptions are the options of every human renderer.
func (m *Meta) renderOptions() ui.RenderOptions {
	return ui.RenderOptions{Color: m.Color, ShowSensitive: m.view.showSensitive}
}

// renderDiags writes diagnostics for people, filtered and condensed as the
// view options say (ui.DiagnosticsView), unless the JSON stream alone
// shows them.
func (m *Meta) renderDiags(w io.Writer, ds diag.Diagnostics) {
	if !m.streamDiagnostics(ds) {
		return
	}
	m.diagnosticsView().Show(w, ds, m.sources)
}

// renderDiagsSplit is renderDiags onto the command's streams as OpenTofu
// writes them: sorted, warnings on standard output (standard error when
// standard output carries a document), errors on standard error.
func (m *Meta) renderDiagsSplit(ds diag.Diagnostics) {
	if !m.streamDiagnostics(ds) {
		return
	}
	out := m.Out
	if m.documentOut {
		out = m.Err
	}
	m.diagnosticsView().ShowSplit(out, m.Err, ds, m.sources)
}

func (m *Meta) diagnosticsView() ui.DiagnosticsView {
	return ui.DiagnosticsView{Color: m.Color, Deprecation: m.view.deprecation, Separated: m.view.separated, Condense: ui.CondenseOptions{
		ConsolidateWarnings: !m.view.splitWarnings, ConsolidateErrors: m.view.consolidateErrors, CompactWarnings: m.view.compactWarnings,
	}}
}

// addJSONIntoFlag defines -json-into, which sends a command's
// machine-readable stream into a file while the human output goes on.
func addJSONIntoFlag(fs *flag.FlagSet, path *string) {
	fs.StringVar(path, "json-into", "", "Write the machine-readable output -json prints into `FILE` (created or truncated, mode 0600), while the human output goes to the terminal as usual.")
}
