package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// generateConfig writes, into the new file path, a resource block for
// every import block whose target has no resource block (plan
// -generate-config-out), and reloads the configuration, which then
// includes the file, into op. It reports whether it wrote the file.
func (m *Meta) generateConfig(ctx context.Context, op *operation, f *operationFlags, path string) (bool, diag.Diagnostics) {
	if f.destroy || f.refreshOnly {
		return false, diag.Diagnostics{diag.Errorf("Invalid generate-config-out flag",
			"Config can only be generated during a normal plan operation, and not during a refresh-only or destroy plan.")}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return false, diag.Diagnostics{diag.Errorf("Target generated file already exists",
			"rig can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.")}
	}
	gen, ds := plan.GenerateConfig(ctx, op.cfg, op.state, op.providers, plan.Options{
		Variables: op.variables, Workspace: m.workspace(), Dependencies: op.dependencies, Cwd: op.cwd, MaxInstances: op.maxInstances,
	})
	if ds.HasErrors() || len(gen) == 0 {
		return false, ds
	}
	if err := os.WriteFile(path, generatedFile(gen), 0o644); err != nil {
		return false, ds.Append(diag.Errorf("Failed to create target generated file",
			"rig could not create the generated file (%s) in the target directory: %v.", path, err))
	}
	cfg, more := m.loadCheckedConfig()
	if ds = ds.Append(more); ds.HasErrors() {
		return true, ds
	}
	op.cfg = cfg
	return true, ds
}

// generatedFile is the content of a -generate-config-out file holding
// the resource blocks gen, each under a comment naming its import ID.
func generatedFile(gen []plan.GeneratedResource) []byte {
	var b bytes.Buffer
	b.WriteString("# __generated__ by rig\n# Please review these resources and move them into your main configuration files.\n")
	for _, g := range gen {
		fmt.Fprintf(&b, "\n# __generated__ by rig from %q\n", g.ID)
		b.Write(g.Config)
	}
	return b.Bytes()
}
