package ui

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// HelpWidth is the width the help of rig's commands is wrapped to.
const HelpWidth = 78

// HelpOption is one line of a help's option list: the option as it is
// written, and what it does.
type HelpOption struct {
	Label, Usage string
}

// FlagHelpOption describes a flag as Terraform's help does: "-name" for a
// switch, "-name=false" for one on by default, "-name=PLACEHOLDER" for a
// flag with a value, the placeholder being the back-quoted word of its
// usage (as flag.UnquoteUsage finds it), or its type in capitals.
func FlagHelpOption(f *flag.Flag) HelpOption {
	placeholder, usage := flag.UnquoteUsage(f)
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		if f.DefValue == "true" {
			return HelpOption{"-" + f.Name + "=false", usage}
		}
		return HelpOption{"-" + f.Name, usage}
	}
	if !strings.Contains(f.Usage, "`") {
		placeholder = strings.ToUpper(placeholder)
	}
	return HelpOption{"-" + f.Name + "=" + placeholder, usage}
}

// RenderHelpOptions writes options in two columns, their usages wrapped
// to HelpWidth, with a blank line between options.
func RenderHelpOptions(w io.Writer, opts []HelpOption) {
	const maxLabel = 24
	col := 0
	for _, o := range opts {
		if n := len(o.Label); n <= maxLabel && n > col {
			col = n
		}
	}
	for i, o := range opts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		lines := wrapWords(o.Usage, HelpWidth-col-4)
		if len(o.Label) > col {
			fmt.Fprintf(w, "  %s\n", o.Label)
		} else {
			fmt.Fprintf(w, "  %-*s  %s\n", col, o.Label, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			fmt.Fprintf(w, "  %-*s  %s\n", col, "", l)
		}
	}
}

// RenderParagraphs writes text's paragraphs (separated by blank lines)
// indented and wrapped to HelpWidth; a paragraph with an indented line is
// written as it stands, indented.
func RenderParagraphs(w io.Writer, text string, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			fmt.Fprintln(w)
		}
		lines := strings.Split(p, "\n")
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, " ") }) {
			lines = wrapWords(p, HelpWidth-indent)
		}
		for _, l := range lines {
			fmt.Fprintf(w, "%s%s\n", pad, l)
		}
	}
}

// wrapWords breaks text into lines of at most width bytes at spaces (a
// longer word has a line to itself). It returns at least one line.
func wrapWords(text string, width int) []string {
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
