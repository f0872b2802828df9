package workdir

import "github.com/rig-iac/rig/internal/diag"

// DevOverridesWarning returns the warning that the CLI configuration's
// dev_overrides are in effect (one line per overridden provider), or nil
// when it sets none. As OpenTofu, plan, apply and destroy show it before
// anything else, validate after its other diagnostics, and the other
// commands not at all.
func (d *Dir) DevOverridesWarning() diag.Diagnostics {
	return append(diag.Diagnostics(nil), d.loadPluginProviders().devWarning...)
}
