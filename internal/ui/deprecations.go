package ui

import (
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
)

// DeprecationLevel is which deprecation warnings about module variables and
// outputs are shown: OpenTofu's -deprecation=module:all|local|none.
type DeprecationLevel uint8

const (
	// DeprecationAll shows every deprecation warning (the default).
	DeprecationAll DeprecationLevel = iota
	// DeprecationLocal leaves out those about modules installed from a
	// remote source (a registry, git, an archive), which their callers
	// cannot change.
	DeprecationLocal
	// DeprecationNone leaves out every deprecation warning about module
	// variables and outputs.
	DeprecationNone
)

// FilterDeprecations returns ds without the deprecation warnings about
// module variables and outputs that level hides, and with each of the
// others once: the same variable set by several calls of its module is one
// warning, as in OpenTofu.
func FilterDeprecations(ds diag.Diagnostics, level DeprecationLevel) diag.Diagnostics {
	seen := map[string]bool{}
	out := make(diag.Diagnostics, 0, len(ds))
	for _, d := range ds {
		switch d.Deprecation {
		case diag.NoDeprecation:
			out = append(out, d)
			continue
		case diag.RemoteModuleDeprecation:
			if level != DeprecationAll {
				continue
			}
		case diag.LocalModuleDeprecation:
			if level == DeprecationNone {
				continue
			}
		}
		key := fmt.Sprintf("%d\x00%s\x00%s", d.Deprecation, d.Summary, d.Detail)
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}
