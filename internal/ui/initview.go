package ui

import (
	"fmt"
	"io"
)

// InitView is what rig init says between its steps, in OpenTofu's words.
type InitView struct {
	W     io.Writer
	Color bool
	// InAutomation leaves out the advice about what to run next
	// (TF_IN_AUTOMATION).
	InAutomation bool
}

// Heading starts a step: "Initializing the backend...".
func (v InitView) Heading(title string) {
	fmt.Fprint(v.W, colorize("[bold]"+title, v.Color)+"\n")
}

// EmptyDirectory says there is nothing to initialize.
func (v InitView) EmptyDirectory() {
	fmt.Fprint(v.W, colorize("[green][bold]rig initialized in an empty directory!", v.Color)+"\n")
	fmt.Fprintln(v.W, "\nThe directory has no rig configuration files. You may begin working\nwith rig immediately by creating rig configuration files.")
}

// Initialized says init succeeded, after a blank line its caller writes.
func (v InitView) Initialized() {
	fmt.Fprint(v.W, colorize("[green][bold]rig has been successfully initialized!", v.Color)+"\n")
	if !v.InAutomation {
		fmt.Fprintln(v.W, "\nYou may now begin working with rig. Try running \"rig plan\" to see\nany changes that are required for your infrastructure. All rig commands\nshould now work.\n\n"+
			"If you ever set or change modules or backend configuration for rig,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.")
	}
}
