package command

import (
	"flag"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
)

// pointsToHelp are the commands that follow the errors of a command line
// they cannot run with a pointer to their help, on standard error, as
// OpenTofu 1.12's (and Terraform 1.16's query and modules) do; the others
// print their whole help on standard output, as OpenTofu's do. rig's own
// commands point to their help.
var pointsToHelp = map[string]bool{
	"validate": true, "plan": true, "apply": true, "destroy": true, "refresh": true,
	"output": true, "show": true, "test": true, "query": true, "modules": true,
	"drift": true, "explain": true, "recover": true, "state unprotect": true,
}

// helpWithoutBlank are the commands whose errors, when their help follows,
// are not followed by a blank line of their own, as in OpenTofu.
var helpWithoutBlank = map[string]bool{"state list": true, "metadata functions": true, "providers schema": true}

// jsonDocument are the commands whose -json prints a document rather
// than a stream of messages: as in OpenTofu, the errors of their command
// line are shown as without it.
var jsonDocument = map[string]bool{
	"show": true, "output": true, "validate": true, "version": true, "providers schema": true,
	"metadata functions": true, "state identities": true, "modules": true,
}

// usageError shows ds, the errors of a command line the command fs parsed
// cannot run, and then its help or the pointer to it (pointsToHelp); with
// -json, only the errors, as messages of the stream.
func (m *Meta) usageError(fs *flag.FlagSet, ds diag.Diagnostics) {
	name := fs.Name()
	if f := fs.Lookup("json"); f != nil && f.Value.String() == "true" && m.stream == nil && !jsonDocument[name] {
		// As OpenTofu: with -json read before the mistake, the errors are
		// the stream's messages, and no help follows.
		if m.startStream(streamFlags{json: true}) {
			defer m.endStream()
		}
	}
	if m.stream != nil && !m.stream.Human {
		m.showDiagnostics(ds)
		return
	}
	separated := m.view.separated
	m.view.separated = !pointsToHelp[name] && !helpWithoutBlank[name]
	m.showDiagnostics(ds)
	m.view.separated = separated
	if pointsToHelp[name] {
		fmt.Fprintf(m.Err, "\nFor more help on using this command, run:\n  rig %s -help\n", name)
		return
	}
	writeCommandHelp(m.Out, fs)
}
