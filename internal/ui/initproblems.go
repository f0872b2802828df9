package ui

import (
	"fmt"
	"io"
	"strings"
)

// initConfigProblems is what init says, as OpenTofu says it, before the
// configuration's errors that stop it: the configuration must be valid for
// init to know what to install.
const initConfigProblems = `rig encountered problems during initialization, including problems
with the configuration, described below.

The rig configuration must be valid before initialization so that
rig can determine which modules and providers need to be installed.`

// InitConfigProblems writes, on errw (standard error), the heading of the
// configuration errors that stop init.
func InitConfigProblems(errw io.Writer, color bool) {
	fmt.Fprint(errw, "\n"+colorize("[reset]", color)+initConfigProblems+"\n")
}

// Error writes an "error" message without a type, after what the command
// said before it: init's heading of the configuration errors that stop it.
func (s *CommandStream) Error(message string) {
	if s.lines != nil {
		s.lines.Flush()
	}
	s.View.emit("error", message, "", nil)
}

// InitConfigProblems writes init's heading of the configuration errors
// that stop it, as one message, as OpenTofu's -json stream has it.
func (s *CommandStream) InitConfigProblems() {
	s.Error(strings.Join(strings.Fields(initConfigProblems), " "))
}
