package workdir

import (
	"fmt"
	"io"
	"os"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// recordLocks is the end of init's provider step: it writes the selections
// made (locks) to the dependency lock file when they differ from what it
// recorded (old), and says so. With readonly (-lockfile=readonly) it never
// writes: a change in the providers locked is an error, other changes (a
// version or hash) a warning, as in Terraform. When it writes, the
// providers of locallyHashed are warned about (incompleteLocksWarning).
func (d *Dir) recordLocks(old, locks *getproviders.Locks, readonly bool, locallyHashed []addrs.Provider, out io.Writer) diag.Diagnostics {
	lockFile := d.path(getproviders.LockFileName)
	_, statErr := os.Stat(lockFile)
	existed := statErr == nil
	if existed && locks.Equal(old) || !existed && len(locks.Providers) == 0 {
		return nil
	}
	if readonly {
		if !locks.SameProviders(old) {
			return diag.Diagnostics{diag.Errorf("Provider dependency changes detected",
				`Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run "rig init" without the "-lockfile=readonly" flag.`)}
		}
		return diag.Diagnostics{{Severity: diag.Warning, Summary: "Provider lock file not updated",
			Detail: `Changes to the provider selections were detected, but not saved in the ` + getproviders.LockFileName + ` file. To record these selections, run "rig init" without the "-lockfile=readonly" flag.`}}
	}
	if err := getproviders.WriteLockFile(lockFile, locks); err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to write dependency lock file", "%s", err)}
	}
	d.plugins = nil // reload what was installed for any later step
	ds := incompleteLocksWarning(locallyHashed)
	if existed {
		fmt.Fprintf(out, "\nrig has made some changes to the provider dependency selections recorded\nin the %s file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.\n", getproviders.LockFileName)
	} else {
		fmt.Fprintf(out, "\nrig has created a lock file %s to record the provider\nselections it made above. Include this file in your version control repository\nso that rig can guarantee to make the same selections by default when\nyou run \"rig init\" in the future.\n", getproviders.LockFileName)
	}
	return ds
}
