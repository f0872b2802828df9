// Command rig is an infrastructure-as-code engine for the Terraform language.
package main

import (
	"os"
	"runtime/debug"

	"github.com/rig-iac/rig/internal/command"
)

func main() {
	// rig is a short-lived process whose heap is mostly live configuration,
	// state and plan: collect garbage less often than the default (GOGC=100)
	// unless the user chose a setting.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(command.Main(os.Args[1:], command.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
