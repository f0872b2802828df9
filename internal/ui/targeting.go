package ui

import (
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// TargetingWarning is the warning a plan made with -target or -exclude
// starts with; none for a plan of -invoke, whose -target adds to what the
// action refers to, as Terraform 1.16 gives none.
func TargetingWarning(p *plan.Plan) diag.Diagnostics {
	if len(p.Targets) == 0 && len(p.Excludes) == 0 || invokes(p) {
		return nil
	}
	return diag.Diagnostics{{Severity: diag.Warning, Summary: "Resource targeting is in effect",
		Detail: "You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when rig specifically suggests to use it as part of an error message."}}
}

// PartialApplyWarning is the warning an apply of a plan made with
// -target or -exclude ends with; none for a plan of -invoke.
func PartialApplyWarning(p *plan.Plan) diag.Diagnostics {
	if len(p.Targets) == 0 && len(p.Excludes) == 0 || invokes(p) {
		return nil
	}
	return diag.Diagnostics{{Severity: diag.Warning, Summary: "Applied changes may be incomplete",
		Detail: "The plan was created with the -target or the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    rig plan\n\nNote that the -target and -exclude options are not suitable for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when rig specifically suggests to use it as part of an error message."}}
}

// invokes reports whether p is a plan of -invoke: it invokes an action
// nothing triggers.
func invokes(p *plan.Plan) bool {
	for _, ai := range p.ActionInvocations {
		if ai.Trigger == nil {
			return true
		}
	}
	return false
}
