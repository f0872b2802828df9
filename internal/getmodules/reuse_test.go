package getmodules

import (
	"testing"
)

// TestInstallReusesRegistryModuleRecordedWithoutHost: a registry module
// OpenTofu or Terraform installed is recorded as the configuration writes
// its source, without a host; installing again without -upgrade reuses it,
// as both tools do, asking no registry (here there is none to ask).
func TestInstallReusesRegistryModuleRecordedWithoutHost(t *testing.T) {
	wd := t.TempDir()
	writeFiles(t, wd, map[string]string{
		"main.tf":                         `module "dice" { source = "acme/bar/random" }`,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"dice","Source":"acme/bar/random","Version":"1.0.0","Dir":".terraform/modules/dice/terraform-random-bar-1.0.0"},{"Key":"","Source":"","Dir":"."}]}`,
		".terraform/modules/dice/terraform-random-bar-1.0.0/main.tf": `output "v" { value = 1 }`,
	})
	m, out := mustInstall(t, Installer{WorkDir: wd, DefaultRegistryHost: "registry.invalid"})
	if out != "" {
		t.Errorf("reinstall printed %q, want nothing", out)
	}
	if dir, ok := m.Dir("dice"); !ok || dir != ".terraform/modules/dice/terraform-random-bar-1.0.0" {
		t.Errorf("dice: %q, %v; want the installed directory", dir, ok)
	}
}
