package workdir

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/config"
)

// TestTreeRequirements: what init installs is every provider any module
// of the tree requires (required_providers), implies or names (resources,
// data sources, provider blocks, import blocks), each once, with the
// version constraints of every module and provider block merged; built-in
// providers are only in the tree's provider list.
func TestTreeRequirements(t *testing.T) {
	files := fstest.MapFS{
		"main.tf": {Data: []byte(`
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.0" }
  }
}
module "a" {
  source = "./a"
}
resource "terraform_data" "x" {}
import {
  to       = aws_instance.web
  id       = "i-1"
  provider = aws.west
}
`)},
		"a/main.tf": {Data: []byte(`
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "< 4.0" }
    dns    = { source = "acme/dns" }
  }
}
module "b" {
  source = "../b"
}
data "local_file" "f" {
  filename = "x"
}
resource "random_id" "r" {
  byte_length = 2
}
`)},
		"b/main.tf": {Data: []byte(`
provider "tls" {
  version = "~> 4.0"
}
resource "time_static" "t" {}
`)},
	}
	cfg, ds := config.LoadTreeFS(files, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	reqs, ds := TreeRequirements(cfg)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var got []string
	for _, r := range reqs {
		got = append(got, strings.TrimSpace(r.Provider.String()+" "+r.Constraints.String()))
	}
	want := []string{
		"registry.terraform.io/acme/dns",
		"registry.terraform.io/hashicorp/aws",
		"registry.terraform.io/hashicorp/local",
		"registry.terraform.io/hashicorp/random >= 3.0.0, < 4.0.0",
		"registry.terraform.io/hashicorp/time",
		"registry.terraform.io/hashicorp/tls ~> 4.0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requirements (-want +got):\n%s", diff)
	}
	var all []string
	for _, p := range TreeRequiredProviders(cfg) {
		all = append(all, p.String())
	}
	want = []string{
		"registry.terraform.io/acme/dns",
		"registry.terraform.io/hashicorp/aws",
		"registry.terraform.io/hashicorp/local",
		"registry.terraform.io/hashicorp/random",
		"registry.terraform.io/hashicorp/time",
		"registry.terraform.io/hashicorp/tls",
		"terraform.io/builtin/terraform",
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
}
