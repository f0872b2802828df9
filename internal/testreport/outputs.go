package testreport

import (
	"io"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ui"
)

// Outputs are where the reports of rig test go, as its output options
// say: the human report (none with -json) and the JSON messages (on
// standard output with -json, into the -json-into file, or none).
type Outputs struct {
	// Human is the human report, nil for none; Reporter sets its Sources.
	Human *Human
	// JSON receives the JSON messages, nil for none.
	JSON io.Writer
	// TerraformVersion and RigVersion are the versions the JSON stream's
	// first message gives.
	TerraformVersion, RigVersion string
}

// Reporter returns the reporters of the outputs, for the module under
// test whose files are sources.
func (o Outputs) Reporter(sources map[string][]byte) Multi {
	var reps Multi
	if o.Human != nil {
		o.Human.Sources = sources
		reps = append(reps, o.Human)
	}
	if o.JSON != nil {
		view := ui.NewJSONView(o.JSON)
		view.Version(o.TerraformVersion, o.RigVersion)
		reps = append(reps, &JSON{View: view, Sources: sources})
	}
	return reps
}

// SetupDiagnostics writes the diagnostics found before the suite runs,
// or that stop it before it starts, as JSON messages (the human report's
// are the command's to show).
func (o Outputs) SetupDiagnostics(ds diag.Diagnostics, sources map[string][]byte) {
	if o.JSON != nil && len(ds) > 0 {
		ui.NewJSONView(o.JSON).Diagnostics(ds, sources)
	}
}
