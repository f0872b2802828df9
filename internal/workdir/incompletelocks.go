package workdir

import (
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// incompleteLocksWarning is the warning init gives, as OpenTofu and
// Terraform do, when the lock file it writes holds, for the providers ps,
// only the checksums of the packages installed here
// (getproviders.Installer.LocallyHashed): another platform cannot install
// them until `rig providers lock` adds its checksums. nil for no provider.
func incompleteLocksWarning(ps []addrs.Provider) diag.Diagnostics {
	if len(ps) == 0 {
		return nil
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.ForDisplay()
	}
	platform := getproviders.CurrentPlatform.String()
	return diag.Diagnostics{{Severity: diag.Warning, Summary: "Incomplete lock file information for providers",
		Detail: fmt.Sprintf("Due to your customized provider installation methods, rig was forced to calculate lock file checksums locally for the following providers:\n  - %s\n\n"+
			"The current %s file only includes checksums for %s, so rig running on another platform will fail to install these providers.\n\n"+
			"To calculate additional checksums for another platform, run:\n  rig providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)",
			strings.Join(names, "\n  - "), getproviders.LockFileName, platform)}}
}
