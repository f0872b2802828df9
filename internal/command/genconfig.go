package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// generateConfig writes, into the new file path, a resource block for
// every import block whose target has no resource block (plan
// -generate-config-out), and reloads the configuration, which then
// includes the file, into op. It returns the blocks it wrote.
func (m *Meta) generateConfig(ctx context.Context, op *operation, f *operationFlags, path string) ([]planner.GeneratedResource, diag.Diagnostics) {
	if f.destroy || f.refreshOnly {
		return nil, diag.Diagnostics{diag.Errorf("Invalid generate-config-out flag",
			"Config can only be generated during a normal plan operation, and not during a refresh-only or destroy plan.")}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil, diag.Diagnostics{diag.Errorf("Target generated file already exists",
			"rig can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.")}
	}
	gen, ds := planner.GenerateConfig(ctx, op.cfg, op.state, op.providers, planner.Options{
		Variables: op.variables, Workspace: m.workspace(), Dependencies: op.dependencies, Cwd: op.cwd, MaxInstances: op.maxInstances,
	})
	if ds.HasErrors() || len(gen) == 0 {
		return nil, ds
	}
	if err := os.WriteFile(path, generatedFile(gen), 0o644); err != nil {
		return nil, ds.Append(diag.Errorf("Failed to create target generated file",
			"rig could not create the generated file (%s) in the target directory: %v.", path, err))
	}
	cfg, more := m.loadCheckedConfig()
	if ds = ds.Append(more); ds.HasErrors() {
		return gen, ds
	}
	op.cfg = cfg
	op.generated = gen
	return gen, ds
}

// markGenerated records in p's import changes the blocks gen holds for
// them, which the plan shows ("config will be generated") and its JSON
// form carries as generated_config.
func markGenerated(p *plan.Plan, gen []planner.GeneratedResource) {
	blocks := map[string]string{}
	for _, g := range gen {
		blocks[g.Addr.String()] = strings.TrimSuffix(string(g.Config), "\n")
	}
	for _, c := range p.Changes {
		if c.Importing != nil && c.Deposed == addrs.NotDeposed {
			c.Importing.GeneratedConfig = blocks[c.Addr.String()]
		}
	}
}

// generatedFile is the content of a -generate-config-out file holding
// the resource blocks gen, each under a comment naming its import ID.
func generatedFile(gen []planner.GeneratedResource) []byte {
	var b bytes.Buffer
	b.WriteString("# __generated__ by rig\n# Please review these resources and move them into your main configuration files.\n")
	for _, g := range gen {
		fmt.Fprintf(&b, "\n# __generated__ by rig from %q\n", g.ID)
		b.Write(g.Config)
	}
	return b.Bytes()
}
