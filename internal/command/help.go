package command

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// helpWidth is the width help text is wrapped to.
const helpWidth = 78

// mainCommands are listed first in rig's help, in workflow order.
var mainCommands = []string{"init", "validate", "plan", "apply", "destroy"}

// diagnosticCommands are the commands whose help lists the view options
// every command accepts (viewFlagNames): those that evaluate the
// configuration, where warnings and progress messages come from.
var diagnosticCommands = []string{"init", "get", "validate", "plan", "apply", "destroy", "refresh", "drift", "console", "import", "graph", "explain"}

// writeUsage writes rig's help: the global options and the commands.
func writeUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: rig [global options] <subcommand> [args]\n\n")
	writeParagraphs(w, "rig plans and applies infrastructure written in the Terraform language, as OpenTofu and Terraform do. The primary workflow commands are given first, followed by less common or more advanced commands.", 2)
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
	writeOptions(w, []option{
		{"-chdir=DIR", "Switch to a different working directory before executing the given subcommand."},
		{"-help", "Show this help output, or the help for a specified subcommand."},
		{"-version", "An alias for the \"version\" subcommand."},
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
	writeParagraphs(w, c.about, 2)
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
	writeParagraphs(w, c.about, 2)
	var opts []option
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(viewFlagNames, f.Name) && !slices.Contains(diagnosticCommands, fs.Name()) {
			return // accepted, but of no interest there
		}
		opts = append(opts, flagOption(f))
	})
	if len(opts) > 0 {
		fmt.Fprintf(w, "\nOptions:\n\n")
		writeOptions(w, opts)
	}
	if subs := subcommands(fs.Name()); len(subs) > 0 && !strings.Contains(fs.Name(), " ") {
		fmt.Fprintf(w, "\nSubcommands:\n")
		for _, sub := range subs {
			fmt.Fprintf(w, "    %-10s %s\n", sub, commands[fs.Name()+" "+sub].synopsis)
		}
	}
}

// option is one line of a help's option list.
type option struct {
	label, usage string
}

// flagOption describes a flag as Terraform's help does: "-name" for a
// switch, "-name=false" for one on by default, "-name=PLACEHOLDER" for a
// flag with a value, the placeholder being the back-quoted word of its
// usage (as flag.UnquoteUsage finds it), or its type in capitals.
func flagOption(f *flag.Flag) option {
	placeholder, usage := flag.UnquoteUsage(f)
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		if f.DefValue == "true" {
			return option{"-" + f.Name + "=false", usage}
		}
		return option{"-" + f.Name, usage}
	}
	if !strings.Contains(f.Usage, "`") {
		placeholder = strings.ToUpper(placeholder)
	}
	return option{"-" + f.Name + "=" + placeholder, usage}
}

// writeOptions writes options in two columns, their usages wrapped, with
// a blank line between options.
func writeOptions(w io.Writer, opts []option) {
	const maxLabel = 24
	col := 0
	for _, o := range opts {
		if n := len(o.label); n <= maxLabel && n > col {
			col = n
		}
	}
	for i, o := range opts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		lines := wrap(o.usage, helpWidth-col-4)
		if len(o.label) > col {
			fmt.Fprintf(w, "  %s\n", o.label)
		} else {
			fmt.Fprintf(w, "  %-*s  %s\n", col, o.label, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			fmt.Fprintf(w, "  %-*s  %s\n", col, "", l)
		}
	}
}

// writeParagraphs writes text's paragraphs (separated by blank lines)
// indented and wrapped; a paragraph with an indented line is written as it
// stands, indented.
func writeParagraphs(w io.Writer, text string, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			fmt.Fprintln(w)
		}
		lines := strings.Split(p, "\n")
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, " ") }) {
			lines = wrap(p, helpWidth-indent)
		}
		for _, l := range lines {
			fmt.Fprintf(w, "%s%s\n", pad, l)
		}
	}
}

// wrap breaks text into lines of at most width bytes at spaces (a longer
// word has a line to itself). It returns at least one line.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}
