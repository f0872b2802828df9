package command

import (
	"context"
	"fmt"
	"os"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

func runInit(m *Meta, args []string) int {
	fs := m.flagSet("init")
	var backendFlags initBackendFlags // -backend-config, -migrate-state, … (migrate.go)
	m.addInitBackendFlags(fs, &backendFlags)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\x1b[1mInitializing the backend...\x1b[0m\n", "Initializing the backend...\n"))
	if more := m.initBackend(context.Background(), cfg, &backendFlags); more.HasErrors() {
		m.showDiagnostics(ds.Append(more))
		return 1
	}
	fmt.Fprint(m.Out, colorText(m.Color, "\x1b[1mInitializing provider plugins...\x1b[0m\n", "Initializing provider plugins...\n"))
	set := provider.NewSet(m.providerFactories())
	defer set.Close()
	factories := m.providerFactories()
	for _, p := range requiredProviders(cfg) {
		if _, ok := factories[p]; !ok {
			ds = ds.Append(diag.Errorf("Failed to query available provider packages",
				"Could not retrieve the list of available versions for provider %s: rig cannot install plugin providers yet; it has the built-in terraform.io/builtin/terraform provider.", p.ForDisplay()))
			continue
		}
		if _, more := set.Schemas(context.Background(), p); more.HasErrors() {
			ds = ds.Append(more)
			continue
		}
		if p.IsBuiltIn() {
			fmt.Fprintf(m.Out, "- %s is built in to rig\n", p)
		}
	}
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	if err := os.MkdirAll(".terraform", 0o755); err != nil {
		m.showDiagnostics(ds.Append(diag.Errorf("Failed to initialize", "Creating .terraform: %s", err)))
		return 1
	}
	m.showDiagnostics(ds)
	fmt.Fprint(m.Out, colorText(m.Color, "\n\x1b[32m\x1b[1mrig has been successfully initialized!\x1b[0m\n", "\nrig has been successfully initialized!\n"))
	fmt.Fprintln(m.Out, "\nYou may now begin working with rig. Try running \"rig plan\" to see\nany changes that are required for your infrastructure.")
	return 0
}
