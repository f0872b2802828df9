package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// runConsole evaluates expressions read from standard input against the
// configuration and the state, printing each value as `tofu console`
// does. An expression ends with its line unless a bracket, brace or
// parenthesis is still open or the line ends with a backslash. At a
// terminal an expression's errors are shown and the next one read; from
// a pipe or a file, as in OpenTofu, the first error ends the command with
// exit status 1. The exit status is 0 at the end of the input or "exit".
func runConsole(m *Meta, args []string) int {
	fs := m.flagSet("console")
	var vars []workdir.VarArg
	fs.Var(varFlagValue{items: &vars}, "var", "Set a value for one of the input variables in the root module: `NAME=VALUE`. Use this option more than once to set more than one variable.")
	fs.Var(varFlagValue{items: &vars, file: true}, "var-file", "Load variable values from the file at `PATH`, in addition to terraform.tfvars and *.auto.tfvars. Use this option more than once to load more than one file.")
	m.varArgs = &vars
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.AnyBackend = true
	scopeAddr := fs.String("scope", "", "Evaluate the expressions in the module instance at `ADDRESS` (module.NAME, with its key when it has count or for_each, and so on down), as its own expressions are evaluated, rather than in the root module.")
	planned := fs.Bool("plan", false, "Make a plan first, as \"rig plan\" does, and evaluate the expressions against the values it plans (unknown until apply where the plan cannot know them) rather than against the state.")
	var lock bool
	var lockTimeout time.Duration
	addLockFlags(fs, &lock, &lockTimeout)
	var stream streamFlags
	addJSONIntoFlag(fs, &stream.into)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument.")
	}
	if !m.startTypedStream(stream) {
		return 1
	}
	defer m.endStream()
	ctx := context.Background()
	// Standard input holds the expressions: no variable is asked for.
	m.Input = false
	var options eval.Options
	var ds diag.Diagnostics
	if *planned {
		f := operationFlags{vars: vars, refresh: true, parallelism: 10, lock: lock, lockTimeout: lockTimeout}
		sess, more := m.open(ctx, &f, "OperationTypePlan")
		defer sess.Close()
		ds = more
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		p, _, more := m.makePlan(ctx, sess, &f, nil)
		if ds = ds.Append(more); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		options = sess.PlannedEvaluation(ctx, p)
	} else {
		var files map[string][]byte
		options, files, ds = m.dir().StateEvaluation(ctx, vars, nil)
		if options.Config != nil {
			m.sources = maps.Clone(options.Config.Sources)
			maps.Copy(m.sources, files)
		}
		if options.Providers != nil {
			defer options.Providers.Close()
		}
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	ev, more := eval.New(ctx, options)
	ds = ds.Append(more)
	scope, cfg, more := consoleScope(ev, options.Config, *scopeAddr)
	ds = ds.Append(more)
	m.showDiagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	interactive := isTerminal(m.In)
	in := bufio.NewScanner(m.In)
	in.Buffer(nil, 1<<20)
	var stmt lang.ConsoleStatement
	for in.Scan() {
		line, complete := stmt.Add(strings.TrimSpace(in.Text()))
		if !complete || line == "" {
			continue
		}
		if line == "exit" {
			break
		}
		out, ds := evalConsoleLine(cfg, scope, line)
		m.sources = map[string][]byte{lang.ConsoleFile: []byte(line)}
		m.showDiagnostics(ds)
		if ds.HasErrors() && !interactive {
			return 1
		}
		if !ds.HasErrors() {
			fmt.Fprintln(m.Out, out)
			if m.stream != nil {
				m.stream.View.Info(out)
			}
		}
	}
	return 0
}

// isTerminal reports whether r is a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// evalConsoleLine evaluates one expression (lang.EvalConsole) and
// formats its value, or its type for a call of type().
func evalConsoleLine(cfg *config.Module, scope *lang.Scope, line string) (string, diag.Diagnostics) {
	v, isType, ds := lang.EvalConsole(cfg, scope, line)
	switch {
	case ds.HasErrors():
		return "", ds
	case isType:
		return ui.FormatType(v.Type(), 0), ds
	}
	return ui.FormatValue(v, 0), ds
}
