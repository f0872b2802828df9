package ui

import (
	"fmt"
	"io"
	"strings"
)

// InitView is what rig init says between its steps, in OpenTofu's words.
type InitView struct {
	W     io.Writer
	Color bool
	// InAutomation leaves out the advice about what to run next
	// (TF_IN_AUTOMATION).
	InAutomation bool
	// Stream, when not nil, is the command's -json stream: what is
	// worded differently there is written to it (and to the terminal when
	// people see the output) rather than to W.
	Stream *CommandStream
}

// Heading starts a step: "Initializing the backend...".
func (v InitView) Heading(title string) {
	line := colorize("[bold]"+title, v.Color) + "\n"
	if v.Stream != nil {
		v.Stream.Say(line, title)
		return
	}
	fmt.Fprint(v.W, line)
}

// EmptyDirectory says there is nothing to initialize.
func (v InitView) EmptyDirectory() {
	fmt.Fprint(v.W, colorize("[green][bold]rig initialized in an empty directory!", v.Color)+"\n")
	fmt.Fprintln(v.W, "\nThe directory has no rig configuration files. You may begin working\nwith rig immediately by creating rig configuration files.")
}

// Initialized says init succeeded, after a blank line its caller writes.
// Its closing advice is two paragraphs for people and, as in OpenTofu, one
// message of the stream.
func (v InitView) Initialized() {
	fmt.Fprint(v.W, colorize("[green][bold]rig has been successfully initialized!", v.Color)+"\n")
	if v.InAutomation {
		return
	}
	const begin = "You may now begin working with rig. Try running \"rig plan\" to see\nany changes that are required for your infrastructure. All rig commands\nshould now work."
	const rerun = "If you ever set or change modules or backend configuration for rig,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary."
	text := "\n" + begin + "\n\n" + rerun + "\n"
	if v.Stream != nil {
		v.Stream.Say(text, strings.ReplaceAll(begin+" "+rerun, "\n", " "))
		return
	}
	fmt.Fprint(v.W, text)
}
