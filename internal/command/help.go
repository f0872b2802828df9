package command

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/ui"
)

// mainCommands are listed first in rig's help, in workflow order.
var mainCommands = []string{"init", "validate", "plan", "apply", "destroy"}

// diagnosticCommands are the commands whose help lists the view options
// every command accepts (viewFlagNames): those that evaluate the
// configuration, where warnings and progress messages come from.
var diagnosticCommands = []string{"init", "get", "validate", "plan", "apply", "destroy", "refresh", "drift", "console", "import", "graph", "explain"}

// writeUsage writes rig's help: the global options and the commands.
func writeUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: rig [global options] <subcommand> [args]\n\n")
	ui.RenderParagraphs(w, "rig plans and applies infrastructure written in the Terraform language, as OpenTofu and Terraform do. The primary workflow commands are given first, followed by less common or more advanced commands.", 2)
	width := 0
	for _, n := range subcommands("") {
		width = max(width, len(n))
	}
	fmt.Fprintf(w, "\nMain commands:\n")
	for _, n := range mainCommands {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].synopsis)
	}
	fmt.Fprintf(w, "\nAll other commands:\n")
	for _, n := range subcommands("") {
		if !slices.Contains(mainCommands, n) {
			fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].synopsis)
		}
	}
	fmt.Fprintf(w, "\nGlobal options (use these before the subcommand, if any):\n")
	ui.RenderHelpOptions(w, []ui.HelpOption{
		{Label: "-chdir=DIR", Usage: "Switch to a different working directory before executing the given subcommand."},
		{Label: "-help", Usage: "Show this help output, or the help for a specified subcommand."},
		{Label: "-version", Usage: "An alias for the \"version\" subcommand."},
	})
}

// subcommands returns the sorted names of the subcommands of group, the
// last word of each; with group "", the top-level commands.
func subcommands(group string) []string {
	var names []string
	for full := range commands {
		if group == "" && !strings.Contains(full, " ") {
			names = append(names, full)
		} else if sub, ok := strings.CutPrefix(full, group+" "); ok && group != "" {
			names = append(names, sub)
		}
	}
	slices.Sort(names)
	return names
}

// writeGroupHelp writes the help of a command that only has subcommands.
func writeGroupHelp(w io.Writer, group string) {
	c := commands[group]
	fmt.Fprintf(w, "Usage: rig [global options] %s %s\n\n", group, c.args)
	ui.RenderParagraphs(w, c.about, 2)
	fmt.Fprintf(w, "\nSubcommands:\n")
	for _, sub := range subcommands(group) {
		fmt.Fprintf(w, "    %-10s %s\n", sub, commands[group+" "+sub].synopsis)
	}
}

// writeCommandHelp writes the help of the command whose flags fs holds
// (fs.Name() is the command's full name): usage, description and options.
func writeCommandHelp(w io.Writer, fs *flag.FlagSet) {
	c := commands[fs.Name()]
	fmt.Fprintf(w, "Usage: rig [global options] %s %s\n\n", fs.Name(), c.args)
	ui.RenderParagraphs(w, c.about, 2)
	var opts []ui.HelpOption
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(viewFlagNames, f.Name) && !slices.Contains(diagnosticCommands, fs.Name()) {
			return // accepted, but of no interest there
		}
		opts = append(opts, ui.FlagHelpOption(f))
	})
	if len(opts) > 0 {
		fmt.Fprintf(w, "\nOptions:\n\n")
		ui.RenderHelpOptions(w, opts)
	}
	if subs := subcommands(fs.Name()); len(subs) > 0 && !strings.Contains(fs.Name(), " ") {
		fmt.Fprintf(w, "\nSubcommands:\n")
		for _, sub := range subs {
			fmt.Fprintf(w, "    %-10s %s\n", sub, commands[fs.Name()+" "+sub].synopsis)
		}
	}
}
