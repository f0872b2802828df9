package workdir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// actionsNotRun warns, once per action_trigger block of the configuration,
// that rig reads and checks actions (Terraform 1.14) but does not run
// them: the provider protocol rig speaks has no action calls yet.
func actionsNotRun(cfg *config.Module) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, mod := range cfg.AllModules() {
		var triggers []*config.ActionTrigger
		var owners []string
		for addr, r := range mod.ManagedResources {
			if r.Managed == nil {
				continue
			}
			for _, at := range r.Managed.ActionTriggers {
				triggers = append(triggers, at)
				owners = append(owners, addr.String())
			}
		}
		idx := make([]int, len(triggers))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			ra, rb := triggers[a].DeclRange, triggers[b].DeclRange
			if c := strings.Compare(ra.Filename, rb.Filename); c != 0 {
				return c
			}
			return ra.Start.Byte - rb.Start.Byte
		})
		for _, i := range idx {
			at := triggers[i]
			var names []string
			for _, ref := range at.Actions {
				if name := ref.Action.String(); !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Actions are not run",
				Detail: fmt.Sprintf("rig reads and checks action blocks and action triggers (Terraform 1.14), but does not run actions yet: %s will not be invoked when %s is %s.",
					strings.Join(names, ", "), owners[i], eventsText(at.Events)),
				Subject: at.DeclRange.Ptr()})
		}
	}
	return ds
}

// eventsText words an action_trigger's events: "created, updated or destroyed" and so on.
func eventsText(events []config.ActionEvent) string {
	var verbs []string
	for _, e := range events {
		var v string
		switch e {
		case config.BeforeCreate, config.AfterCreate:
			v = "created"
		case config.BeforeUpdate, config.AfterUpdate:
			v = "updated"
		case config.BeforeDestroy, config.AfterDestroy:
			v = "destroyed"
		}
		if v != "" && !slices.Contains(verbs, v) {
			verbs = append(verbs, v)
		}
	}
	switch len(verbs) {
	case 0:
		return "changed"
	case 1:
		return verbs[0]
	}
	return strings.Join(verbs[:len(verbs)-1], ", ") + " or " + verbs[len(verbs)-1]
}
