package command

import (
	"flag"
	"fmt"

	"github.com/rig-iac/rig/internal/cliargs"
	"github.com/rig-iac/rig/internal/diag"
)

// finishCompat reports the refused compatibility options given, and
// starts the JSON stream -json or -json-into asks for. It returns the exit
// status and false when the command must not run.
func (m *Meta) finishCompat(given *cliargs.CompatGiven, fs *flag.FlagSet) (int, bool) {
	if len(given.Refused) > 0 {
		var ds diag.Diagnostics
		for _, name := range given.Refused {
			ds = ds.Append(diag.Errorf(fmt.Sprintf("Option -%s is not supported", name), "%s", diag.Sentence(cliargs.RefusedReason(fs.Name(), name))))
		}
		m.usageError(fs, ds)
		return 1, false
	}
	if given.Streamed && !m.startStream(streamFlags{json: given.JSON, into: given.Into}) {
		return 1, false
	}
	return 0, true
}

// preCommand handles a command name before it is looked up: an alias
// becomes the command it stands for (name and args are rewritten), and a
// command rig does not have is refused with its reason (handled is then
// true, with the exit status).
func (m *Meta) preCommand(name *string, args *[]string) (code int, handled bool) {
	if reason, ok := cliargs.RefusedCommand(*name); ok {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf(fmt.Sprintf("rig has no %s command", *name), "%s", diag.Sentence(reason))})
		return 1, true
	}
	var deprecated bool
	*name, *args, deprecated = cliargs.ResolveAlias(*name, *args)
	if deprecated {
		m.showDiagnostics(diag.Diagnostics{warningf(`The "rig env" family of commands is deprecated`,
			"\"Workspace\" is now the preferred term for what earlier OpenTofu and Terraform versions called \"environment\", to reduce ambiguity caused by the latter term colliding with other concepts.\n\nThe \"rig workspace\" commands should be used instead.")})
	}
	return 0, false
}
