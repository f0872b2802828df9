package command

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
	"github.com/rig-iac/rig/internal/workdir"
)

// runShow shows the state, a saved plan or a state file given as
// argument (or selected with -state, -plan=FILE), or with -json the
// configuration (-config) or one module's (-module=DIR); -json emits the
// documented JSON representation, -json-into writes it into a file beside
// the human output.
func runShow(m *Meta, args []string) int {
	fs := m.flagSet("show")
	jsonOut := fs.Bool("json", false, "Print the state or the plan in the JSON representation OpenTofu and Terraform document.")
	var jsonInto string
	addJSONIntoFlag(fs, &jsonInto)
	m.addShowSensitiveFlag(fs)
	timelineOut := fs.String("timeline", "", "Write the timeline of the last apply or destroy that ran an operation in this working directory to `FILE`, as an HTML page, and show nothing else.")
	lastApply := fs.Bool("last-apply", false, "Print the report of the last apply or destroy in this working directory: what was applied, what failed and why, what did not start and because of which failure, and what is left to do. With -json, the report's JSON.")
	stateTarget := fs.Bool("state", false, "Show the state of the selected workspace (what is shown without an argument).")
	planTarget := fs.String("plan", "", "Show the plan saved in the file at `FILE` (what is shown given it as argument).")
	configTarget := fs.Bool("config", false, "With -json, print the configuration in the JSON representation a JSON plan's \"configuration\" has.")
	moduleTarget := fs.String("module", "", "With -json, print the module in the directory at `DIR`, alone, in the JSON configuration representation.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = *jsonOut
	if *jsonOut && jsonInto != "" {
		return m.argsError(fs, "Invalid output format", "The -json and -json-into arguments are mutually exclusive.")
	}
	if *timelineOut != "" {
		if fs.NArg() > 0 || *jsonOut || jsonInto != "" {
			return m.argsError(fs, "Invalid combination of options", "-timeline writes the timeline of the last apply; it takes no plan file, no -json and no -json-into.")
		}
		return m.showTimeline(*timelineOut)
	}
	if *lastApply {
		if fs.NArg() > 0 || jsonInto != "" {
			return m.argsError(fs, "Invalid combination of options", "-last-apply prints the report of the last apply; it takes no plan file and no -json-into.")
		}
		return m.showLastApply(*jsonOut)
	}
	targets := 0
	for _, set := range []bool{*stateTarget, *planTarget != "", *configTarget, *moduleTarget != ""} {
		if set {
			targets++
		}
	}
	switch {
	case targets > 1:
		return m.argsError(fs, "Conflicting object types to show", "The -state, -plan=FILE, -config and -module=DIR options are mutually-exclusive, because each selects a different object to show.")
	case targets == 1 && fs.NArg() > 0:
		return m.argsError(fs, "Unexpected command line arguments", "This command does not expect any positional arguments when using a target-selection option.")
	case (*configTarget || *moduleTarget != "") && !*jsonOut:
		return m.argsError(fs, "JSON output required", "The -config and -module=DIR options require -json to be specified.")
	case fs.NArg() > 1:
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument: the path of a saved plan file or a state file.")
	}
	out := ui.DocumentView{W: m.Out, JSON: *jsonOut, Into: jsonInto}
	switch {
	case *configTarget:
		return m.showConfig(out)
	case *moduleTarget != "":
		return m.showModule(out, *moduleTarget)
	case *planTarget != "":
		return m.showPlanFile(out, *planTarget, false)
	case fs.NArg() == 1:
		return m.showPlanFile(out, fs.Arg(0), true)
	}
	s, ds := m.currentState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	return m.showState(out, s)
}

// showPlanFile shows the plan saved at path; orState lets the file be a
// state file instead, as a positional argument may be.
func (m *Meta) showPlanFile(out ui.DocumentView, path string, orState bool) int {
	ctx := context.Background()
	pf, err := m.readSavedPlan(path)
	if err != nil {
		if orState {
			if s, serr := workdir.ReadStateFile(path); serr == nil {
				return m.showState(out, s)
			}
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a state or plan file", "%s", err)})
			return 1
		}
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
		return 1
	}
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	schemas := ui.PlanSchemas(ctx, set, pf.Plan)
	human := true
	if out.Wanted() {
		cfg := m.dir().PlannedConfig(pf)
		if err := workdir.RestoreChecks(pf, cfg); err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
			return 1
		}
		b, err := ui.MarshalPlanJSON(pf.Plan, schemas, ui.JSONOptions{Version: version.Terraform, Config: jsonformat.NewConfigFromSet(ctx, cfg, schemas, set)})
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode plan", "%s", err)})
			return 1
		}
		var ds diag.Diagnostics
		if human, ds = out.Write(b); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	if !human {
		return 0
	}
	ui.RenderSavedPlan(m.Out, pf.Plan, schemas, apply.OrderOptions{Config: m.dir().PlannedConfig(pf)}, m.renderOptions())
	return 0
}

// showState shows a state.
func (m *Meta) showState(out ui.DocumentView, s *state.State) int {
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	schemas := ui.StateSchemas(context.Background(), set, s)
	if out.Wanted() {
		b, err := ui.MarshalStateJSON(s, schemas, ui.JSONOptions{Version: version.Terraform})
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode state", "%s", err)})
			return 1
		}
		human, ds := out.Write(b)
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		if !human {
			return 0
		}
	}
	if s.Empty() {
		fmt.Fprintln(m.Out, "No state.")
		return 0
	}
	// An object the schema cannot decode is an error, as in OpenTofu,
	// not a state shown without it.
	var text strings.Builder
	if err := ui.RenderState(&text, s, schemas, m.renderOptions()); err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to show state", "%s.", err)})
		return 1
	}
	fmt.Fprint(m.Out, text.String())
	return 0
}

// showConfig prints the configuration of the working directory as the
// JSON plan's "configuration" describes it, with the providers' schemas
// for its expressions.
func (m *Meta) showConfig(out ui.DocumentView) int {
	cfg, ds := m.loadCheckedConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	return m.showJSON(out, jsonformat.NewConfigFromSet(context.Background(), cfg, ui.ProviderSchemas{}, set), "Failed to marshal configuration to JSON", ds)
}

// showModule prints the module in dir alone, as OpenTofu's show -module
// does: without the modules it calls, without schemas, and so without
// expressions, but with each variable's type and whether it is required.
func (m *Meta) showModule(out ui.DocumentView, dir string) int {
	mod, ds := config.LoadDir(dir)
	if mod != nil {
		m.sources = mod.Sources
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	mod.Children = map[string]*config.Module{}
	return m.showJSON(out, jsonformat.NewStandaloneModule(mod), "Failed to marshal module contents to JSON", ds)
}

// showJSON shows ds, then writes v as a JSON document where out says
// (failure is the summary of the error when v cannot be encoded).
func (m *Meta) showJSON(out ui.DocumentView, v any, failure string, ds diag.Diagnostics) int {
	b, err := json.Marshal(v)
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf(failure, "%s", err)))
		return 1
	}
	m.showDiagnostics(ds)
	if _, more := out.Write(b); more.HasErrors() {
		m.showDiagnostics(more)
		return 1
	}
	return 0
}
