package command

import (
	"io"

	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
)

// newOutput returns the view of an operation (ui.OperationView): human,
// JSON on standard output when json is set, and JSON into into as well
// when it is not nil.
func (m *Meta) newOutput(json bool, into io.Writer) *ui.OperationView {
	var stream *ui.JSONView
	switch {
	case json:
		stream = ui.NewJSONView(m.Out)
	case into != nil:
		stream = ui.NewJSONView(into)
	}
	if stream != nil {
		stream.Version(version.Terraform, version.Rig)
	}
	o := ui.NewOperationView(m.Out, !json, m.view.concise, m.renderOptions(), stream)
	o.ShowDiagnostics = m.renderDiagsSplit
	o.Sources = func() map[string][]byte { return m.sources }
	m.op = o
	return o
}
