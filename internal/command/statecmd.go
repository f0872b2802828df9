package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
	"github.com/rig-iac/rig/internal/workdir"
)

// runStateList lists the instances in state, optionally filtered by address prefixes.
func runStateList(m *Meta, args []string) int {
	fs := m.flagSet("state list")
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.AnyBackend = true
	id := fs.String("id", "", "List only the instances whose object's id attribute is `ID`.")
	var stream streamFlags
	addStreamFlags(fs, &stream)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if !m.startTypedStream(stream) {
		return 1
	}
	defer m.endStream()
	s, ds := m.storedState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	insts, ds := workdir.ListInstances(s, fs.Args(), *id)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	for _, inst := range insts {
		addr := inst.String()
		fmt.Fprintln(m.Out, addr)
		if m.stream != nil {
			m.stream.View.Message(addr, "resource_address", nil)
		}
	}
	return 0
}

// storedState reads the state for a state command: an error when there
// is none, as in OpenTofu.
func (m *Meta) storedState() (*state.State, diag.Diagnostics) {
	cfg, _ := m.loadConfigQuiet()
	return m.dir().StoredState(context.Background(), cfg)
}

// runStateShow shows one instance's attributes.
func runStateShow(m *Meta, args []string) int {
	fs := m.flagSet("state show")
	m.addShowSensitiveFlag(fs)
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.AnyBackend = true
	jsonOut := fs.Bool("json", false, "Print the instance as a JSON state holding it alone, in the JSON state representation OpenTofu and Terraform document; its sensitive values are shown, as that format shows them.")
	var jsonInto string
	addJSONIntoFlag(fs, &jsonInto)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if *jsonOut && jsonInto != "" {
		return m.argsError(fs, "Invalid output format", "The -json and -json-into arguments are mutually exclusive.")
	}
	if fs.NArg() != 1 {
		return m.argsError(fs, "Invalid number of arguments", "Exactly one argument expected")
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Error parsing instance address", "%s", err)})
		return 1
	}
	s, ds := m.storedState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	inst := s.Instance(addr)
	if inst == nil || !inst.HasObjects() {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("No instance found for the given address",
			"This command requires that the address references one specific instance. To view the available instances, use \"rig state list\". Please modify the address to reference a specific instance.")})
		return 1
	}
	set := provider.NewSet(m.dir().ProviderFactories())
	defer set.Close()
	schemas := ui.StateSchemas(context.Background(), set, s)
	if *jsonOut || jsonInto != "" {
		doc, err := ui.MarshalStateInstanceJSON(s, addr, schemas, ui.JSONOptions{Version: version.Terraform}, version.Rig)
		if err != nil {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to marshal state to json", "Error while marshalling state to json: %s", err)})
			return 1
		}
		if *jsonOut {
			fmt.Fprintln(m.Out, string(doc))
			return 0
		}
		if ds := ui.WriteJSONInto(jsonInto, doc); ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
	}
	_ = ui.RenderStateInstance(m.Out, s, addr, schemas, m.renderOptions())
	return 0
}
