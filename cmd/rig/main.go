// Command rig is an infrastructure-as-code engine for the Terraform language.
//
// It imports internal/command.
package main

import (
	"os"

	"github.com/rig-iac/rig/internal/command"
)

func main() {
	tuneGC()
	stop := startProfiles()
	code := command.Main(os.Args[1:], command.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
