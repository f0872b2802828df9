package command

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/rig-iac/rig/internal/provider/plugin"
)

// Streams are the standard streams a command reads and writes.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

type commandFunc func(m *Meta, args []string) int

type commandInfo struct {
	run      commandFunc
	synopsis string
}

var commands map[string]commandInfo

func init() {
	commands = map[string]commandInfo{
		"init":     {runInit, "Prepare your working directory for other commands"},
		"validate": {runValidate, "Check whether the configuration is valid"},
		"plan":     {runPlan, "Show changes required by the current configuration"},
		"apply":    {runApply, "Create or update infrastructure"},
		"destroy":  {runDestroy, "Destroy previously-created infrastructure"},
		"graph":    {runGraph, "Generate a Graphviz graph of the steps in an operation"},
		"import":   {runImport, "Associate existing infrastructure with a rig resource"},
		"output":   {runOutput, "Show output values from your root module"},
		"show":     {runShow, "Show the current state or a saved plan"},
		"state":    {runState, "Advanced state management"},
		"version":  {runVersion, "Show the current rig version"},
		// workspace.go
		"workspace": {runWorkspace, "Workspace management"},
	}
}

// Main runs rig with the given arguments (without the program name) and
// returns the exit status: 0 success, 1 error, 2 changes present with
// -detailed-exitcode.
func Main(args []string, streams Streams) int {
	// Provider plugin processes end with rig, also after a panic.
	defer plugin.CleanupClients()
	m := &Meta{Streams: streams, Color: true, Input: true}
	if os.Getenv("NO_COLOR") != "" {
		m.Color = false
	}
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
		case arg == "-help" || arg == "--help" || arg == "-h":
			usage(streams.Out)
			return 0
		default:
			fmt.Fprintf(streams.Err, "Error: unknown global option %s\n\n", arg)
			usage(streams.Err)
			return 1
		}
		args = args[1:]
	}
	if len(args) == 0 {
		usage(streams.Out)
		return 1
	}
	info, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(streams.Err, "rig has no command named %q.\n\n", args[0])
		usage(streams.Err)
		return 1
	}
	return info.run(m, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: rig [global options] <subcommand> [args]\n\n")
	fmt.Fprintf(w, "rig plans and applies infrastructure written in the Terraform language.\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].synopsis)
	}
	fmt.Fprintf(w, "\nGlobal options (use these before the subcommand, if any):\n  -chdir=DIR    Switch to a different working directory before executing the\n                given subcommand.\n  -help         Show this help output.\n  -version      Show the current rig version.\n")
}
