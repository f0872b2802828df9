package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitReportsConfigurationErrors checks that the configuration errors
// OpenTofu reports at init, before installing anything, stop rig init too,
// with OpenTofu's summary, detail and the file and line; nothing is
// installed and no lock file is written.
func TestInitReportsConfigurationErrors(t *testing.T) {
	tests := []struct {
		name, config, summary, detail, location string
	}{
		{
			name: "repository prefix in a provider type",
			config: `terraform {
  required_providers {
    aws = { source = "hashicorp/terraform-provider-aws" }
  }
}
`,
			summary:  "Invalid provider type",
			detail:   `Did you mean "hashicorp/aws"?`,
			location: "on main.tf line 3",
		},
		{
			name: "invalid registry host name",
			config: `terraform {
  required_providers {
    bar = { source = "example..com/acme/bar" }
  }
}
`,
			summary:  "Invalid provider source hostname",
			detail:   "hostname contains empty label (two consecutive periods)",
			location: "on main.tf line 3",
		},
		{
			name: "removed habitat provisioner",
			config: `resource "terraform_data" "a" {
  provisioner "habitat" {}
}
`,
			summary:  `The "habitat" provisioner has been removed`,
			detail:   `The "habitat" provisioner is deprecated and has been removed from OpenTofu.`,
			location: "on main.tf line 2",
		},
		{
			name: "validation of another variable",
			config: `variable "a" {
  default = "x"
  validation {
    condition     = var.b != ""
    error_message = "b must be set."
  }
}
variable "b" {
  default = "y"
}
`,
			summary:  "Invalid variable validation condition",
			detail:   `The condition for variable "a" must refer to var.a in order to test incoming values.`,
			location: "on main.tf line 4",
		},
		{
			name: "precondition naming its own resource",
			config: `resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = terraform_data.a.input == null
      error_message = "x"
    }
  }
}
`,
			summary:  "Invalid reference in precondition",
			detail:   "Configuration for terraform_data.a may not refer to itself.",
			location: "on main.tf line 4",
		},
		{
			name: "provider for_each from a self-referencing local",
			config: `locals { k = local.k }
provider "terraform" {
  alias    = "x"
  for_each = local.k
}
`,
			summary:  "Circular reference",
			detail:   "local.k is self referential",
			location: "on main.tf line 1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": tt.config})
			r := rig(t, dir, "init", "-no-color")
			if r.code != 1 {
				t.Fatalf("init: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, want := range []string{"Error: " + tt.summary, tt.detail, tt.location} {
				if !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), strings.Join(strings.Fields(want), " ")) {
					t.Errorf("init lacks %q:\n%s", want, r.stderr)
				}
			}
			for _, path := range []string{".terraform/providers", ".terraform.lock.hcl"} {
				if _, err := os.Stat(filepath.Join(dir, path)); err == nil {
					t.Errorf("init wrote %s", path)
				}
			}
		})
	}
}
