package command

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
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
	timelineOut := fs.String("timeline", "", "Write the timeline of the last apply or destroy that ran an operation in this working directory to `FILE`, as an HTML page, and show nothing else.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if *timelineOut != "" {
		if fs.NArg() > 0 || *jsonOut {
			return m.argsError(fs, "Invalid combination of options", "-timeline writes the timeline of the last apply; it takes no plan file and no -json.")
		}
		return m.showTimeline(*timelineOut)
	}
	if fs.NArg() > 1 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument: the path of a saved plan file.")
	}
	ctx := context.Background()
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	opts := ui.RenderOptions{Color: m.Color}
	if fs.NArg() == 1 {
		cfg, _ := m.loadConfigQuiet() // for the plan's encryption, if any
		pf, err := readPlan(fs.Arg(0), cfg)
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
			return 1
		}
		schemas := planSchemas(ctx, set, pf.Plan)
		if *jsonOut {
			cfg := m.plannedConfig(pf)
			if err := restoreChecks(pf, cfg); err != nil {
				m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
				return 1
			}
			configSchemas(func(p addrs.Provider) (*provider.Schemas, bool) {
				s, ds := set.Schemas(ctx, p)
				return s, !ds.HasErrors()
			}, cfg, schemas)
			b, err := ui.MarshalPlanJSON(pf.Plan, schemas, ui.JSONOptions{Version: version.Terraform, Config: configSummary(cfg, schemas)})
			if err != nil {
				m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode plan", "%s", err)})
				return 1
			}
			fmt.Fprintln(m.Out, string(b))
			return 0
		}
		_ = ui.RenderPlan(m.Out, pf.Plan, schemas, opts)
		if g, ds := apply.Order(pf.Plan); !ds.HasErrors() && pf.Plan.HasChanges() {
			ui.RenderOrder(m.Out, g, provisionersOf(pf.Plan, m.plannedConfig(pf), g), opts)
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

// plannedConfig returns the configuration a saved plan was made from,
// loaded from the files the plan recorded: the root module's, and below it
// each called module's, found in the directory a local source names
// relative to its caller, or, for an installed module, in the directory
// the working directory's module manifest records. A call whose module's
// files are not among the recorded ones has no module below it.
func (m *Meta) plannedConfig(pf *planfile.File) *config.Module {
	byDir := map[string]map[string][]byte{}
	for name, src := range pf.Config {
		dir := filepath.Dir(name)
		if byDir[dir] == nil {
			byDir[dir] = map[string][]byte{}
		}
		byDir[dir][name] = src
	}
	root, _ := config.LoadFiles(byDir["."])
	root.SourceDir = "."
	resolve := m.installedModules()
	var addChildren func(mod *config.Module)
	addChildren = func(mod *config.Module) {
		for _, name := range sortedMapKeys(mod.ModuleCalls) {
			call := mod.ModuleCalls[name]
			path := mod.Path.Child(name)
			if path.Depth() > maxSavedModuleDepth {
				continue
			}
			dir := filepath.Join(mod.SourceDir, filepath.FromSlash(call.Source))
			if !config.IsLocalSource(call.Source) {
				var ds diag.Diagnostics
				if dir, ds = resolve(strings.Join(path.Calls(), "."), call); ds.HasErrors() {
					continue
				}
			}
			files := byDir[filepath.Clean(dir)]
			if len(files) == 0 {
				continue
			}
			child, _ := config.LoadFiles(files)
			child.SourceDir, child.Path, child.Parent = filepath.Clean(dir), path, mod
			mod.Children[name] = child
			addChildren(child)
		}
	}
	addChildren(root)
	return root
}

// maxSavedModuleDepth bounds the nesting of modules loaded from a saved
// plan, so that a module calling itself ends.
const maxSavedModuleDepth = 64
