package command

import (
	"strings"
	"testing"
)

// TestProviderForEachValidatedWithGivenVariables validates and plans a
// provider block whose for_each comes from a root variable: its instances
// are those of the values given (-var, terraform.tfvars), not of the
// variable's default, as OpenTofu validates them. The default holds an
// instance the provider refuses; the values given do not, and the other
// way round.
func TestProviderForEachValidatedWithGivenVariables(t *testing.T) {
	pluginWorld(t)
	const cfg = testFileProvider + `
variable "regions" {
  type    = map(string)
  default = { a = "east", b = "bad" }
}

provider "test" {
  alias    = "each"
  for_each = var.regions
  region   = each.value
}

resource "test_thing" "e" {
  for_each = var.regions
  provider = test.each[each.key]
  name     = each.key
}
`
	refused := `with provider["registry.terraform.io/rig/test"].each["`
	tests := []struct {
		name    string
		tfvars  string
		args    []string
		wantBad string // the refused instance's key, "" for none
	}{
		{"defaults", "", []string{"validate"}, "b"},
		{"-var to validate", "", []string{"validate", `-var=regions={a="east"}`}, ""},
		{"terraform.tfvars to validate", `regions = { a = "east" }`, []string{"validate"}, ""},
		{"-var to plan", "", []string{"plan", `-var=regions={a="east"}`}, ""},
		{"-var to plan refused", "", []string{"plan", `-var=regions={c="bad"}`}, "c"},
		{"terraform.tfvars to plan", `regions = { a = "east", d = "bad" }`, []string{"plan", `-var=regions={c="bad"}`}, "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"main.tf": cfg}
			if tt.tfvars != "" {
				files["terraform.tfvars"] = tt.tfvars
			}
			dir := workDir(t, files)
			r := rig(t, dir, append(tt.args, "-no-color")...)
			if tt.wantBad == "" {
				if r.code != 0 || strings.Contains(r.stderr, "Invalid region") {
					t.Fatalf("exit %d, want 0 and no refused region:\n%s%s", r.code, r.stdout, r.stderr)
				}
				return
			}
			if r.code != 1 || strings.Count(r.stderr, "Error: Invalid region") != 1 || !strings.Contains(r.stderr, refused+tt.wantBad+`"],`) {
				t.Fatalf("exit %d, want 1 and one Invalid region for instance %q:\n%s%s", r.code, tt.wantBad, r.stdout, r.stderr)
			}
		})
	}
}
