package command

import (
	"flag"

	"github.com/rig-iac/rig/internal/diag"
)

// addInvokeFlag defines -invoke (Terraform 1.14) on plan and apply; the
// addresses are parsed with the plan's selection (workdir.PlanSelection).
func addInvokeFlag(fs *flag.FlagSet, f *operationFlags) {
	fs.Func("invoke", "Invoke the action at `ADDRESS` (action.TYPE.NAME, with its instance key when it has count or for_each) instead of planning changes: the plan only refreshes what the action refers to (and what -target selects, when given) and runs the action.", func(s string) error {
		f.invoke = append(f.invoke, s)
		return nil
	})
}

// checkInvokeFlags reports what -invoke cannot go with: as in Terraform,
// one action at a time, and a plan of the normal mode only (-invoke makes
// it refresh-only).
func checkInvokeFlags(f *operationFlags) diag.Diagnostics {
	var ds diag.Diagnostics
	if len(f.invoke) == 0 {
		return nil
	}
	if len(f.invoke) > 1 {
		ds = ds.Append(diag.Errorf("Invalid arguments", "Only one action can be invoked at a time."))
	}
	if f.destroy || f.refreshOnly {
		ds = ds.Append(diag.Errorf("Incompatible plan mode options", "The -invoke option cannot be combined with -destroy or -refresh-only: invoking an action plans a refresh of the state and the action only."))
	}
	if len(f.replace) > 0 || len(f.excludes)+len(f.excludeFiles) > 0 {
		ds = ds.Append(diag.Errorf("Unsupported combination of options", "The -invoke option cannot be combined with -replace or -exclude."))
	}
	return ds
}
