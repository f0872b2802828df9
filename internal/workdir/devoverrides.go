package workdir

import (
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// The last paragraph of the dev_overrides warning: what the other
// commands say, and what init says instead, as OpenTofu and Terraform.
const (
	devOverridesRuntimeNote = "The behavior may therefore not match any released version of the provider and applying changes may cause the state to become incompatible with published releases."
	devOverridesInitNote    = "Skip rig init when using provider development overrides. It is not necessary and may error unexpectedly."
)

// DevOverridesWarning returns the warning that the CLI configuration's
// dev_overrides are in effect (one line per overridden provider), or nil
// when it sets none. As OpenTofu, plan, apply and destroy show it before
// anything else, validate after its other diagnostics, init in its own
// words (devOverridesInitWarning), and the other commands not at all.
func (d *Dir) DevOverridesWarning() diag.Diagnostics {
	return append(diag.Diagnostics(nil), d.loadPluginProviders().devWarning...)
}

// devOverridesInitWarning is the dev_overrides warning ds as init gives
// it: that init is not needed for the overridden providers.
func devOverridesInitWarning(ds diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		d.Detail = strings.Replace(d.Detail, devOverridesRuntimeNote, devOverridesInitNote, 1)
		out[i] = d
	}
	return out
}
