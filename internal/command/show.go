package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
)

// runShow shows the state, or a saved plan given as argument; -json emits
// the documented JSON state or plan representation.
func runShow(m *Meta, args []string) int {
	fs := m.flagSet("show")
	jsonOut := fs.Bool("json", false, "Print the state or the plan in the JSON representation OpenTofu and Terraform document.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument: the path of a saved plan file.")
	}
	ctx := context.Background()
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	opts := ui.RenderOptions{Color: m.Color}
	if fs.NArg() == 1 {
		pf, err := planfile.Read(fs.Arg(0))
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
			return 1
		}
		schemas := planSchemas(ctx, set, pf.Plan)
		if *jsonOut {
			b, err := ui.MarshalPlanJSON(pf.Plan, schemas, ui.JSONOptions{Version: version.Terraform})
			if err != nil {
				m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode plan", "%s", err)})
				return 1
			}
			fmt.Fprintln(m.Out, string(b))
			return 0
		}
		_ = ui.RenderPlan(m.Out, pf.Plan, schemas, opts)
		if g, ds := apply.Order(pf.Plan); !ds.HasErrors() && pf.Plan.HasChanges() {
			ui.RenderOrder(m.Out, g, opts)
		}
		return 0
	}
	s, ds := m.currentState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	schemas := stateSchemas(ctx, set, s)
	if *jsonOut {
		b, err := ui.MarshalStateJSON(s, schemas, ui.JSONOptions{Version: version.Terraform})
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode state", "%s", err)})
			return 1
		}
		fmt.Fprintln(m.Out, string(b))
		return 0
	}
	if s.Empty() {
		fmt.Fprintln(m.Out, "No state.")
		return 0
	}
	_ = ui.RenderState(m.Out, s, schemas, opts)
	return 0
}
