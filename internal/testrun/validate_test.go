package testrun_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/testrun"
)

// A run's providers argument may only hand the module a configuration of
// the provider type the module's name for it stands for, as OpenTofu
// checks.
func TestValidateRunProviderTypes(t *testing.T) {
	const module = `terraform {
  required_providers {
    foo = {
      source                = "hashicorp/foo"
      configuration_aliases = [foo.bar]
    }
  }
}
resource "foo_resource" "a" {}
resource "bar_resource" "a" {}
`
	const tests = `provider "foo" {}
provider "foo" {
  alias = "bar"
}
provider "bar" {
  alias = "foo"
}
run "fine" {
  providers = {
    foo     = foo
    foo.bar = foo.bar
    bar     = bar.foo
  }
}
run "mismatched" {
  providers = {
    foo     = bar.foo
    foo.bar = foo.bar
  }
}
`
	cfg, ds := config.LoadFiles(map[string][]byte{"main.tf": []byte(module)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	file, ds := config.ParseTestFile("main.tftest.hcl", "main.tftest.hcl", []byte(tests))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var got []string
	for _, d := range testrun.Validate(file, cfg, nil) {
		got = append(got, fmt.Sprintf("%s %s:%d: %s", d.Severity, d.Subject.Filename, d.Subject.Start.Line, d.Summary))
	}
	want := []string{"error main.tftest.hcl:17: Provider type mismatch"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
