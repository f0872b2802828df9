package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/workdir"
)

// runStatePull prints the selected workspace's state as stored (nothing
// when there is none), with what a crashed run left in its journal; what
// is not a state is an error, as in OpenTofu.
func runStatePull(m *Meta, args []string) int {
	fs := m.flagSet("state pull")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = true
	if fs.NArg() > 0 {
		return m.argsError(fs, "Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?")
	}
	cfg, _ := m.loadConfigQuiet()
	data, ds := m.dir().PullState(context.Background(), cfg)
	if len(ds) > 0 {
		m.showDiagnostics(ds)
	}
	if ds.HasErrors() {
		return 1
	}
	if len(data) > 0 {
		m.Out.Write(data)
		if data[len(data)-1] != '\n' {
			fmt.Fprintln(m.Out)
		}
	}
	return 0
}

// runStatePush replaces the selected workspace's state with a state file
// ("-" reads standard input), under the state lock. As in Terraform it
// refuses a state of another lineage, or an older serial, than the one
// stored, unless -force. The stored serial only ever grows: a state pushed
// with a serial not above the stored one is written with the next serial.
func runStatePush(m *Meta, args []string) int {
	fs := m.flagSet("state push")
	force := fs.Bool("force", false, "Write the state even if its lineage differs from the stored state's or its serial is lower.")
	var lock bool
	var lockTimeout time.Duration
	addLockFlags(fs, &lock, &lockTimeout)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return m.argsError(fs, "Invalid number of arguments", "The state push command expects exactly one argument: the path of a state file, or - for standard input.")
	}
	var data []byte
	var err error
	if path := fs.Arg(0); path == "-" {
		data, err = io.ReadAll(m.In)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the state file", "%s", err)})
		return 1
	}
	cfg, _ := m.loadConfigQuiet()
	ds := m.dir().PushState(context.Background(), cfg, data, *force, workdir.LockOptions{Lock: lock, Timeout: lockTimeout})
	if len(ds) > 0 {
		m.showDiagnostics(ds)
	}
	if ds.HasErrors() {
		return 1
	}
	return 0
}
