package command

import (
	"strings"
	"testing"
)

// init -upgrade in an initialized directory lists the local modules again
// and uses a provider package already installed at the version selected,
// as OpenTofu does, rather than installing it again.
func TestInitUpgradeKeepsWhatIsInstalled(t *testing.T) {
	mirror := testProviderMirror(t)
	dir := workDir(t, map[string]string{
		"main.tf": `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}

module "m" {
  source = "./m"
}
`,
		"m/main.tf": "",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	r := rigOK(t, dir, "init", "-no-color", "-upgrade")
	want := "\nInitializing the backend...\nUpgrading modules...\n- m in m\n\nInitializing provider plugins...\n" +
		"- Finding latest version of rig/test...\n- Using previously-installed rig/test v0.0.1\n\n"
	if !strings.HasPrefix(r.stdout, want) {
		t.Errorf("init -upgrade:\n%s\nwant it to begin\n%s", r.stdout, want)
	}
}
