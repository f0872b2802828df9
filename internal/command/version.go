package command

import (
	"encoding/json"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/version"
)

// runVersion prints rig's version, the Terraform version it is compatible
// with, the platform and the provider versions the lock file selects.
func runVersion(m *Meta, args []string) int {
	fs := m.flagSet("version")
	jsonOut := fs.Bool("json", false, "Print the version information as a JSON object.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = *jsonOut
	if fs.NArg() > 0 {
		// OpenTofu and Terraform ignore them: a warning, and the version.
		m.showDiagnostics(diag.Diagnostics{warningf("Unexpected argument", "The version command takes no arguments; %q and what follows it are ignored.", fs.Arg(0))})
	}
	// As in Terraform, a missing or unreadable lock file is no selections.
	locks, _ := m.dir().ReadLockFile()
	var sorted []*getproviders.Lock
	if locks != nil {
		sorted = locks.Sorted()
	}
	platform := getproviders.CurrentPlatform.String()
	if *jsonOut {
		b, err := json.MarshalIndent(jsonformat.NewVersion(sorted, platform, version.Terraform, version.Rig), "", "  ")
		if err != nil {
			fmt.Fprintf(m.Err, "Error: encoding version information: %s\n", err)
			return 1
		}
		fmt.Fprintln(m.Out, string(b))
		return 0
	}
	fmt.Fprintf(m.Out, "rig v%s\non %s\ncompatible with OpenTofu and Terraform v%s\n", version.Rig, platform, version.Terraform)
	for _, l := range sorted {
		fmt.Fprintf(m.Out, "+ provider %s v%s\n", l.Provider.String(), l.Version)
	}
	return 0
}
