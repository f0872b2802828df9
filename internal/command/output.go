package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

func runOutput(m *Meta, args []string) int {
	fs := m.flagSet("output")
	jsonOut := fs.Bool("json", false, "Print machine-readable output in JSON format: every output with its type and sensitivity, or the named output's value.")
	m.addShowSensitiveFlag(fs)
	m.addLegacyStateFlags(fs, legacyStateOnly)
	m.legacy.AnyBackend = true
	raw := fs.Bool("raw", false, "Print the named output's value, which must be a string, a number or a bool, as it is: without quotes and without a newline, for shell scripts.")
	var jsonInto string
	addJSONIntoFlag(fs, &jsonInto)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	m.documentOut = *jsonOut
	if *jsonOut && jsonInto != "" {
		return m.argsError(fs, "Invalid output format", "The -json and -json-into arguments are mutually exclusive.")
	}
	if fs.NArg() > 1 {
		return m.argsError(fs, "Unexpected argument", "The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs.")
	}
	s, ds := m.currentState()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if jsonInto != "" {
		// What -json prints, into the file; the human output follows.
		var name string
		if fs.NArg() == 1 {
			name = fs.Arg(0)
		}
		if b, ok := jsonformat.MarshalOutputs(s.Outputs, name); ok {
			if ds := ui.WriteJSONInto(jsonInto, b); ds.HasErrors() {
				m.showDiagnostics(ds)
				return 1
			}
		}
	}
	if fs.NArg() == 1 {
		name := fs.Arg(0)
		o, ok := s.Outputs[name]
		if !ok && len(s.Outputs) == 0 && !*jsonOut {
			// With no output at all (null ones are not recorded), the
			// human and raw forms warn and succeed, as OpenTofu's do.
			m.showDiagnostics(diag.Diagnostics{noOutputsWarning})
			return 0
		}
		if !ok {
			m.showDiagnostics(diag.Diagnostics{diag.Errorf("Output \""+name+"\" not found",
				"The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `rig apply`, since the state won't be updated with new output variables until that command is run.")})
			return 1
		}
		switch {
		case *raw:
			v, err := ui.RawString(o.Value)
			if err != nil {
				m.showDiagnostics(diag.Diagnostics{diag.Errorf("Unsupported value for raw output",
					"The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\nUse the -json option for machine-readable representations of output values that have complex types.",
					name, o.Value.Type().FriendlyName())})
				return 1
			}
			fmt.Fprint(m.Out, v)
		case *jsonOut:
			b, ok := jsonformat.MarshalOutputs(s.Outputs, name)
			if !ok {
				m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to encode output", "The value of %q cannot be written as JSON.", name)})
				return 1
			}
			fmt.Fprintln(m.Out, string(b))
		default:
			fmt.Fprintln(m.Out, ui.FormatValue(o.Value, 0))
		}
		return 0
	}
	if *jsonOut {
		b, _ := jsonformat.MarshalOutputs(s.Outputs, "")
		fmt.Fprintln(m.Out, string(b))
		return 0
	}
	if len(s.Outputs) == 0 {
		m.showDiagnostics(diag.Diagnostics{noOutputsWarning})
		return 0
	}
	_ = ui.RenderOutputs(m.Out, s.Outputs, ui.RenderOptions{ShowSensitive: m.view.showSensitive})
	return 0
}

// noOutputsWarning is what output says when the state records no output.
var noOutputsWarning = diag.Diagnostic{Severity: diag.Warning, Summary: "No outputs found",
	Detail: "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `rig refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `rig console` command to assist."}

// currentState reads the state of the selected workspace without locking
// (workdir.Dir.CurrentState).
func (m *Meta) currentState() (*state.State, diag.Diagnostics) {
	cfg, _ := m.loadConfigQuiet()
	return m.dir().CurrentState(context.Background(), cfg)
}

// loadConfigQuiet loads the configuration if there is one, for commands that
// work without it (output, show, state): only its backend setting matters.
func (m *Meta) loadConfigQuiet() (*config.Module, bool) {
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return nil, false
	}
	return cfg, true
}
