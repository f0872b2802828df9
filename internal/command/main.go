package command

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/interrupt"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// Streams are the standard streams a command reads and writes.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// Main runs rig with the given arguments (without the program name) and
// returns the exit status: 0 success, 1 error, 2 changes present with
// -detailed-exitcode.
func Main(args []string, streams Streams) int {
	// Provider plugin processes end with rig, also after a panic.
	defer plugin.CleanupClients()
	m := &Meta{Streams: streams, Color: true, Input: true, interrupts: interrupt.New(streams.Err, interrupt.DefaultGrace, nil)}
	// path.cwd is where rig was started, whatever -chdir says.
	m.startDir, _ = os.Getwd()
	if os.Getenv("NO_COLOR") != "" {
		m.Color = false
	}
	start := time.Now()
	m.runEnv = readRunEnv(os.Getenv)
	if cliargs.HasNoColor(args) {
		// -no-color anywhere applies from the start, to the errors of
		// the flags before it too, as in Terraform.
		m.Color = false
	}
	m.log = corelog.Open(os.Getenv, m.Err)
	defer m.log.Close()
	cliargs.LogStart(m.log, args)
	// The CLI configuration is read before -chdir, so that a relative
	// TF_CLI_CONFIG_FILE is the caller's, and its problems are shown for
	// every command, as Terraform and OpenTofu show them.
	m.showCLIConfigProblems()
	// Global options come before the command name.
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		arg := args[0]
		switch {
		case strings.HasPrefix(arg, "-chdir="):
			dir := strings.TrimPrefix(arg, "-chdir=")
			if err := os.Chdir(dir); err != nil {
				fmt.Fprintf(streams.Err, "Error handling -chdir option: %s\n", err)
				return 1
			}
		case arg == "-version" || arg == "--version" || arg == "-v":
			return runVersion(m, nil)
		case cliargs.IsHelp(arg):
			if len(args) > 1 {
				// `rig -help plan` is `rig plan -help`.
				return m.run(append(args[1:], "-help"))
			}
			writeUsage(streams.Out)
			return 0
		default:
			fmt.Fprintf(streams.Err, "Error: unknown global option %q.%s\n\nGlobal options come before the command; to see them, run:\n  rig -help\n",
				arg, didYouMean(strings.SplitN(arg, "=", 2)[0], []string{"-chdir", "-help", "-version"}))
			return 1
		}
		args = args[1:]
	}
	if len(args) == 0 {
		writeUsage(streams.Out)
		return 1
	}
	args, notes, err := cliargs.EnvArgs(args, isCommand, os.Getenv)
	if err != nil {
		// As Terraform words it: "Error parsing extra CLI args from …".
		fmt.Fprintf(streams.Err, "Error %s\n", err)
		return 1
	}
	for _, n := range notes {
		fmt.Fprintf(streams.Err, "Warning: %s\n", n)
	}
	if cliargs.HasNoColor(args) {
		m.Color = false
	}
	cliargs.LogCommand(m.log, args, isCommand, os.Getenv, corelog.String("data_dir", m.dataDir()),
		corelog.Bool("in_automation", m.inAutomation), corelog.Bool("input_disabled_by_env", m.noInput))
	defer m.endStream() // the end of a -json or -json-into stream
	code := m.run(args)
	m.log.Info("rig finished", corelog.Int("exit_code", code), corelog.Duration("elapsed", time.Since(start)))
	if code != 0 {
		m.showPluginCrashes()
	}
	plugin.TakeCrashes() // forgotten after a success
	return code
}

// run runs the command named by args[0] (and args[1], for a command with
// subcommands), or `rig help [COMMAND [SUBCOMMAND]]`.
func (m *Meta) run(args []string) int {
	name, args := args[0], args[1:]
	if name == "help" {
		if len(args) == 0 {
			writeUsage(m.Out)
			return 0
		}
		// `rig help plan` is `rig plan -help`.
		name, args = args[0], append(args[1:], "-help")
	}
	if code, handled := m.preCommand(&name, &args); handled {
		return code
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(m.Err, "rig has no command named %q.%s\n\nTo see all of rig's top-level commands, run:\n  rig -help\n",
			name, didYouMean(name, subcommands("")))
		return 1
	}
	// A command with both a run function and subcommands (providers) runs
	// the subcommand its first argument names, else itself.
	if c.run != nil {
		if len(args) > 0 {
			if sub, ok := commands[name+" "+args[0]]; ok {
				return m.runCommand(name+" "+args[0], sub, args[1:])
			}
		}
		return m.runCommand(name, c, args)
	}
	// A command with subcommands: its help without one, as Terraform does.
	switch {
	case len(args) > 0 && cliargs.IsHelp(args[0]):
		writeGroupHelp(m.Out, name)
		return 0
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		// No subcommand, or an option where it goes (rig state
		// -no-color): the group's help, as both tools show it.
		writeGroupHelp(m.Err, name)
		return 1
	}
	sub, ok := commands[name+" "+args[0]]
	if !ok {
		fmt.Fprintf(m.Err, "rig %s has no subcommand named %q.%s\n\nTo see all of its subcommands, run:\n  rig %s -help\n",
			name, args[0], didYouMean(args[0], subcommands(name)), name)
		return 1
	}
	return m.runCommand(name+" "+args[0], sub, args[1:])
}

// didYouMean is ` Did you mean "NAME"?` for the candidate nearest to name,
// or "" when none is near.
func didYouMean(name string, candidates []string) string {
	if near := lang.NameSuggestion(name, candidates); near != "" {
		return fmt.Sprintf(" Did you mean %q?", near)
	}
	return ""
}
