package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
)

const importUsage = `Usage: rig [global options] import [options] ADDR ID

  Import existing infrastructure into your rig state.

  This will find and import the specified resource into your rig state,
  allowing existing infrastructure to come under rig management without
  having to be initially created by rig.

  The ADDR specified is the address to import the resource to, which must
  be declared in the configuration. The ID is a resource-specific ID to
  identify that resource being imported: see the documentation of the
  resource type for its syntax.

  This command will not modify your infrastructure, but it will make
  network requests to inspect parts of your infrastructure relevant to
  the resource being imported.

Options:

  -input=false            Disable interactive input prompts.
  -lock=false             Don't hold a state lock during the operation.
  -lock-timeout=0s        Duration to retry a state lock.
  -no-color               If specified, output won't contain any color.
  -var 'foo=bar'          Set a variable in the rig configuration. This flag
                          can be set multiple times.
  -var-file=foo           Set variables in the rig configuration from a file.
`

// runImport is `rig import ADDR ID`: it imports one existing remote object
// into the state at ADDR, which the configuration must declare.
func runImport(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("import")
	fs.Var(varFlagValue{items: &f.vars}, "var", "Set a value for one of the input variables in the root module (NAME=VALUE).")
	fs.Var(varFlagValue{items: &f.vars, file: true}, "var-file", "Load variable values from the given file.")
	fs.BoolVar(&f.lock, "lock", true, "Lock the state file while the operation runs.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.Usage = func() { fmt.Fprint(m.Err, importUsage) }
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(m.Err, "The import command expects two arguments.\n%s", importUsage)
		return 1
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

	var forceStop func()
	ctx, stop := m.interruptible(func() {
		if forceStop != nil {
			forceStop()
		}
	})
	defer stop()
	op, ds := m.prepare(ctx, &f, "OperationTypeImport")
	defer op.close()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	forceStop = func() { op.providers.Stop(context.Background()) }
	view := ui.NewImportView(m.Out, ui.RenderOptions{Color: m.Color})
	imported, more := plan.Import(ctx, op.cfg, op.state, op.providers, []plan.ImportTarget{{Addr: addr, ID: fs.Arg(1)}},
		plan.ImportOptions{Variables: op.variables, Workspace: m.workspace(), Hooks: view})
	if ds = ds.Append(more); ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	// The same writer as apply's: a new serial, the lineage kept, the
	// previous state in the backup; a journal left by apply is retired.
	writer := newStateWriter(op.store, op.state)
	if err := writer.WriteState(context.Background(), imported); err != nil {
		m.showDiagnostics(ds.Append(m.persistFailed(imported, writer, err)))
		return 1
	}
	view.Success()
	m.showDiagnostics(ds)
	return 0
}
