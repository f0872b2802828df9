package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// runGraph prints a Graphviz DOT graph: by default the resources and their
// dependencies; with -type=plan or -type=plan-destroy, the operations a plan
// would run and their order.
func runGraph(m *Meta, args []string) int {
	fs := m.flagSet("graph")
	typ := fs.String("type", "", "Draw the graph of `TYPE`: plan or plan-destroy, the operations of such a plan and their order. By default the graph is of the resources and their dependencies.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "The "+fs.Name()+" command takes no positional arguments. To run it in another working directory, use the global -chdir option.")
	}
	ctx := context.Background()
	switch *typ {
	case "":
		cfg, ds := m.loadCheckedConfig()
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		set := provider.NewSet(m.providerFactories())
		defer set.Close()
		g, more := plan.ResourceGraph(ctx, cfg, set)
		ds = ds.Append(more)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		if err := g.DOT(m.Out, dag.DOTOptions[addrs.ConfigResource]{GraphName: "rig", Name: addrs.ConfigResource.String}); err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to write graph", "%s", err)})
			return 1
		}
		return 0
	case "plan", "plan-destroy", "apply":
		f := operationFlags{refresh: true, parallelism: 10, lock: true, destroy: *typ == "plan-destroy"}
		op, ds := m.prepare(ctx, &f, "OperationTypePlan")
		defer op.close()
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		p, more := m.makePlan(ctx, op, &f)
		ds = ds.Append(more)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		g, more := apply.Order(p)
		ds = ds.Append(more)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		if err := g.G.DOT(m.Out, dag.DOTOptions[apply.Op]{GraphName: "rig", Name: g.Label}); err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to write graph", "%s", err)})
			return 1
		}
		return 0
	}
	fmt.Fprintf(m.Err, "Error: invalid -type %q: want \"plan\", \"plan-destroy\" or nothing.\n", *typ)
	return 1
}
