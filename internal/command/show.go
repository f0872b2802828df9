package command

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/ui"
)

// runShow shows the state, or a saved plan given as argument; -json emits
// the documented JSON state or plan representation.
func runShow(m *Meta, args []string) int {
	fs := m.flagSet("show")
	jsonOut := fs.Bool("json", false, "Output the state or plan in the documented JSON format.")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(m.Err, "Error: the show command expects at most one argument: a saved plan file.")
		return 1
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
			cfg := m.plannedConfig(pf)
			configSchemas(func(p addrs.Provider) (*provider.Schemas, bool) {
				s, ds := set.Schemas(ctx, p)
				return s, !ds.HasErrors()
			}, cfg, schemas)
			b, err := ui.MarshalPlanJSON(pf.Plan, schemas, ui.JSONOptions{Version: StateTerraformVersion, Config: configSummary(cfg, schemas)})
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
		b, err := ui.MarshalStateJSON(s, schemas, ui.JSONOptions{Version: StateTerraformVersion})
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

// plannedConfig returns the configuration a saved plan was made from: the
// working directory's, with the modules it calls, when its files are those
// the plan recorded; else the root module alone, loaded from the recorded
// files, whose module calls then have no module below them.
func (m *Meta) plannedConfig(pf *planfile.File) *config.Module {
	if cfg, ds := config.LoadTree(".", installedModules()); !ds.HasErrors() && sameSources(cfg.Sources, pf.Config) {
		return cfg
	}
	rootFiles := map[string][]byte{}
	for name, src := range pf.Config {
		if filepath.Dir(name) == "." {
			rootFiles[name] = src
		}
	}
	cfg, _ := config.LoadFiles(rootFiles)
	return cfg
}
