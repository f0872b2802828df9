package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/ui"
)

// runImport is `rig import ADDR ID`: it imports one existing remote object
// into the state at ADDR, which the configuration must declare.
func runImport(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("import")
	m.varFlags(fs, &f.vars)
	addLockFlags(fs, &f.lock, &f.lockTimeout)
	m.addLegacyStateFlags(fs, legacyAll)
	fs.StringVar(&m.configDir, "config", "", "Load the configuration that declares ADDR and its provider from the directory at `PATH` instead of the working directory, whose state and backend are still used.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return m.argsError(fs, "Invalid number of arguments", "The import command expects two arguments: the address to import into and the remote object's ID.")
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid resource address", "%s.", err)})
		fmt.Fprintln(m.Err, "For information on valid syntax, see:\nhttps://opentofu.org/docs/cli/state/resource-addressing/")
		return 1
	}
	if addr.Resource.Resource.Mode != addrs.Managed {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid target resource address",
			"A managed resource address is required. Importing into a data resource is not allowed.")})
		return 1
	}

	run := m.startRun()
	defer run.end()
	ctx := run.ctx
	sess, ds := run.open(m, &f, "OperationTypeImport")
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if code, ok := m.importTargetConfigured(sess.Config, addr); !ok {
		return code
	}
	view := ui.NewImportView(m.Out, ui.RenderOptions{Color: m.Color})
	var hooks plan.ImportHooks = view
	if m.view.concise {
		hooks = nil // no progress lines
	}
	imported, more := sess.Import(ctx, []planner.ImportTarget{{Addr: addr, ID: fs.Arg(1)}}, hooks)
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	// The same writer as apply's: a new serial, the lineage kept, the
	// previous state in the backup; a journal left by apply is retired.
	endWriting := m.interrupts.BeginWriting()
	defer endWriting()
	if more := sess.Persist(imported, m.Out); more.HasErrors() {
		m.showDiagnostics(ds.Append(more))
		return 1
	}
	view.Success()
	m.showDiagnostics(ds)
	return 0
}
