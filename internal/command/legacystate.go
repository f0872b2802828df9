package command

import (
	"flag"
	"fmt"
)

// legacyFlags says which of the legacy options a command takes.
type legacyFlags uint8

const (
	// legacyStateOnly is -state alone (output, console, state list, state show).
	legacyStateOnly legacyFlags = iota
	// legacyStateBackup is -state and -backup (state rm, state replace-provider).
	legacyStateBackup
	// legacyAll is -state, -state-out and -backup (the operations, import,
	// taint, untaint, state mv).
	legacyAll
)

// addLegacyStateFlags defines the local backend's legacy options a
// command takes.
func (m *Meta) addLegacyStateFlags(fs *flag.FlagSet, which legacyFlags) {
	fs.StringVar(&m.legacy.Path, "state", "", "Legacy option for the local backend only: read (and write) the state in the file at `PATH` instead of the selected workspace's state file.")
	if which == legacyStateOnly {
		return
	}
	if which == legacyAll {
		fs.StringVar(&m.legacy.Out, "state-out", "", "Legacy option for the local backend only: write the state to the file at `PATH` instead of the file it was read from, which stays as it was.")
	}
	fs.StringVar(&m.legacy.Backup, "backup", "", "Legacy option for the local backend only: back up the state file, as it was before rig first wrote it, to the file at `PATH` (\"-\" for no backup). By default the backup is the state file's path with \".backup\" appended.")
}

// stateSavedNote is what apply says after writing the state to the file
// -state-out names, when it added or changed something, as OpenTofu says it.
func (m *Meta) stateSavedNote(added, changed int) {
	if m.legacy.Out == "" || added+changed == 0 {
		return
	}
	fmt.Fprintf(m.Out, "\nThe state of your infrastructure has been saved to the path below. This state\nis required to modify and destroy your infrastructure, so keep it safe. To\ninspect the complete state use the `rig show` command.\n\nState path: %s\n", m.legacy.Out)
}
