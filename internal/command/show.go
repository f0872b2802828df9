package command

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
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
	out := showOutput{m: m, json: *jsonOut, into: jsonInto}
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

// showOutput is where show writes: the human rendering unless -json, and
// the JSON document on standard output (-json) or into a file (-json-into).
type showOutput struct {
	m    *Meta
	json bool
	into string
}

// document writes the JSON document b where it goes; it reports whether
// the human rendering follows.
func (o showOutput) document(b []byte) (human bool, ds diag.Diagnostics) {
	switch {
	case o.json:
		fmt.Fprintln(o.m.Out, string(b))
		return false, nil
	case o.into != "":
		return true, writeJSONInto(o.into, b)
	}
	return true, nil
}

// wantsJSON reports whether the JSON document is needed.
func (o showOutput) wantsJSON() bool { return o.json || o.into != "" }

// showPlanFile shows the plan saved at path; orState lets the file be a
// state file instead, as a positional argument may be.
func (m *Meta) showPlanFile(out showOutput, path string, orState bool) int {
	ctx := context.Background()
	cfg, _ := m.loadConfigQuiet() // for the plan's encryption, if any
	pf, err := readPlan(path, cfg)
	if err != nil {
		if orState {
			if data, rerr := os.ReadFile(path); rerr == nil {
				if s, serr := statefile.Parse(data); serr == nil {
					return m.showState(out, s)
				}
			}
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a state or plan file", "%s", err)})
			return 1
		}
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to read the given file as a plan", "%s", err)})
		return 1
	}
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	schemas := planSchemas(ctx, set, pf.Plan)
	human := true
	if out.wantsJSON() {
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
		var ds diag.Diagnostics
		if human, ds = out.document(b); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	if !human {
		return 0
	}
	opts := m.renderOptions()
	_ = ui.RenderPlan(m.Out, pf.Plan, schemas, opts)
	if g, ds := apply.Order(pf.Plan); !ds.HasErrors() && pf.Plan.HasChanges() {
		ui.RenderOrder(m.Out, g, provisionersOf(pf.Plan, m.plannedConfig(pf), g), opts)
	}
	return 0
}

// showState shows a state.
func (m *Meta) showState(out showOutput, s *state.State) int {
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	schemas := stateSchemas(context.Background(), set, s)
	if out.wantsJSON() {
		b, err := ui.MarshalStateJSON(s, schemas, ui.JSONOptions{Version: version.Terraform})
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode state", "%s", err)})
			return 1
		}
		human, ds := out.document(b)
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
	_ = ui.RenderState(m.Out, s, schemas, m.renderOptions())
	return 0
}

// showConfig prints the configuration of the working directory as the
// JSON plan's "configuration" describes it, with the providers' schemas
// for its expressions.
func (m *Meta) showConfig(out showOutput) int {
	cfg, ds := m.loadCheckedConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	schemas := ui.ProviderSchemas{}
	configSchemas(func(p addrs.Provider) (*provider.Schemas, bool) {
		s, more := set.Schemas(context.Background(), p)
		return s, !more.HasErrors()
	}, cfg, schemas)
	return m.showConfigSummary(out, configSummary(cfg, schemas), ds)
}

// showModule prints the module in dir alone, as OpenTofu's show -module
// does: without the modules it calls, without schemas, and so without
// expressions, but with each variable's type and whether it is required.
func (m *Meta) showModule(out showOutput, dir string) int {
	mod, ds := config.LoadDir(dir)
	if mod != nil {
		m.sources = mod.Sources
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	mod.Children = map[string]*config.Module{}
	b, err := json.Marshal(singleModule(mod))
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to marshal module contents to JSON", "%s", err)))
		return 1
	}
	m.showDiagnostics(ds)
	if _, more := out.document(b); more.HasErrors() {
		m.showDiagnostics(more)
		return 1
	}
	return 0
}

// singleModuleJSON is a module described alone (show -module).
type singleModuleJSON struct {
	ProviderConfigs map[string]ui.ProviderConfigSummary `json:"provider_config,omitempty"`
	RootModule      struct {
		Outputs     map[string]singleOutputJSON   `json:"outputs,omitempty"`
		Resources   []singleResourceJSON          `json:"resources,omitempty"`
		ModuleCalls map[string]singleCallJSON     `json:"module_calls,omitempty"`
		Variables   map[string]singleVariableJSON `json:"variables,omitempty"`
	} `json:"root_module"`
}

type singleOutputJSON struct {
	Sensitive   bool     `json:"sensitive,omitempty"`
	Deprecated  string   `json:"deprecated,omitempty"`
	Description string   `json:"description,omitempty"`
	DependsOn   []string `json:"depends_on,omitempty"`
}

type singleResourceJSON struct {
	Address           string   `json:"address,omitempty"`
	Mode              string   `json:"mode,omitempty"`
	Type              string   `json:"type,omitempty"`
	Name              string   `json:"name,omitempty"`
	ProviderConfigKey string   `json:"provider_config_key,omitempty"`
	DependsOn         []string `json:"depends_on,omitempty"`
}

type singleCallJSON struct {
	Source            string   `json:"source,omitempty"`
	VersionConstraint string   `json:"version_constraint,omitempty"`
	DependsOn         []string `json:"depends_on,omitempty"`
}

type singleVariableJSON struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

// singleModule describes mod alone: what configSummary says of it without
// schemas, less the expressions, plus its variables' types.
func singleModule(mod *config.Module) singleModuleJSON {
	summary := configSummary(mod, ui.ProviderSchemas{})
	var out singleModuleJSON
	out.ProviderConfigs = summary.ProviderConfigs
	root := summary.RootModule
	for name, o := range root.Outputs {
		if out.RootModule.Outputs == nil {
			out.RootModule.Outputs = map[string]singleOutputJSON{}
		}
		so := singleOutputJSON{Sensitive: o.Sensitive, Description: o.Description, DependsOn: o.DependsOn}
		if co := mod.Outputs[name]; co != nil {
			so.Deprecated = co.Deprecated
		}
		out.RootModule.Outputs[name] = so
	}
	for _, r := range root.Resources {
		out.RootModule.Resources = append(out.RootModule.Resources, singleResourceJSON{Address: r.Address, Mode: r.Mode, Type: r.Type,
			Name: r.Name, ProviderConfigKey: r.ProviderConfigKey, DependsOn: r.DependsOn})
	}
	for name, c := range root.ModuleCalls {
		if out.RootModule.ModuleCalls == nil {
			out.RootModule.ModuleCalls = map[string]singleCallJSON{}
		}
		out.RootModule.ModuleCalls[name] = singleCallJSON{Source: c.Source, VersionConstraint: c.VersionConstraint, DependsOn: c.DependsOn}
	}
	for name, v := range mod.Variables {
		if out.RootModule.Variables == nil {
			out.RootModule.Variables = map[string]singleVariableJSON{}
		}
		sv := singleVariableJSON{Description: v.Description, Required: v.Required(), Sensitive: v.Sensitive, Deprecated: v.Deprecated}
		if v.Type != cty.NilType && v.Type != cty.DynamicPseudoType {
			sv.Type, _ = ctyjson.MarshalType(v.Type)
		}
		if v.Default != cty.NilVal {
			sv.Default, _ = ctyjson.Marshal(v.Default, v.Default.Type())
		}
		out.RootModule.Variables[name] = sv
	}
	return out
}

func (m *Meta) showConfigSummary(out showOutput, summary *ui.ConfigSummary, ds diag.Diagnostics) int {
	b, err := json.Marshal(summary)
	if err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to marshal configuration to JSON", "%s", err)))
		return 1
	}
	m.showDiagnostics(ds)
	if _, more := out.document(b); more.HasErrors() {
		m.showDiagnostics(more)
		return 1
	}
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
			dir := filepath.Join(mod.SourceDir, filepath.FromSlash(config.LocalSourcePath(call.Source)))
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
