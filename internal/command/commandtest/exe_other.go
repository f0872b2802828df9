//go:build !windows

package commandtest

// exeSuffix ends the name of an executable.
const exeSuffix = ""
