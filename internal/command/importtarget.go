package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ui"
)

// importTargetConfigured checks, as OpenTofu does before it imports, that
// the configuration declares the module and the resource addr names; when
// it does not, it says so in OpenTofu's words and returns the exit status
// and false.
func (m *Meta) importTargetConfigured(cfg *config.Module, addr addrs.AbsResourceInstance) (int, bool) {
	mod := cfg.Descendant(addr.Module.Module())
	if mod == nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Import to non-existent module",
			"%s is not defined in the configuration. Please add configuration for this module before importing into it.", addr.Module)})
		return 1, false
	}
	r := addr.Resource.Resource
	if mod.ResourceByAddr(r) != nil {
		return 0, true
	}
	where := "the root module"
	if !addr.Module.IsRoot() {
		where = addr.Module.String()
	}
	// Not a diagnostic in OpenTofu either: its detail holds an example.
	if m.stream != nil {
		m.stream.Error(fmt.Sprintf("Resource address %q does not exist in the configuration. Before importing this resource, please create its configuration in %s", addr.String(), where))
		if !m.stream.Human {
			return 1, false
		}
	}
	ui.RenderImportTargetMissing(m.Err, addr.String(), where, r.Type, r.Name, m.Color)
	return 1, false
}
