package planner_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestValidateOutputs checks that validation refuses, as OpenTofu's and
// Terraform's validate do, a root output that holds a sensitive value
// without saying so, and an output (of the root or a child module) that
// holds an ephemeral value without being declared ephemeral, with the
// values it knows without variables or state: the variables' sensitivity
// and ephemerality, the local values computed from them. The cases give
// the errors OpenTofu 1.12's validate gives.
func TestValidateOutputs(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "sensitive values",
			files: map[string]string{"main.tf": `variable "secret" {
  type      = string
  sensitive = true
}
locals {
  derived = "${var.secret}-x"
}
output "leak" {
  value = local.derived
}
output "declared" {
  value     = var.secret
  sensitive = true
}
output "revealed" {
  value = nonsensitive(var.secret)
}
output "length" {
  value = length(var.secret) > 3
}
`},
			// A function's result over a sensitive value is sensitive.
			want: []string{"main.tf:8:1 Output refers to sensitive values", "main.tf:18:1 Output refers to sensitive values"},
		},
		{
			name: "ephemeral values",
			files: map[string]string{"main.tf": `variable "token" {
  type      = string
  ephemeral = true
}
output "leak" {
  value = "${var.token}-x"
}
output "dropped" {
  value = ephemeralasnull(var.token)
}
module "child" {
  source = "./child"
  token  = var.token
}
`, "child/main.tf": `variable "token" {
  ephemeral = true
}
output "passed" {
  value     = var.token
  ephemeral = true
}
output "leak" {
  value = var.token
}
`},
			want: []string{
				"main.tf:6:11 Output does not allow ephemeral value",
				"child/main.tf:9:11 Output does not allow ephemeral value",
			},
		},
		{
			name: "nothing sensitive or ephemeral",
			files: map[string]string{"main.tf": `variable "name" {
  type = string
}
output "name" {
  value = var.name
}
`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := fstest.MapFS{}
			for name, src := range tt.files {
				files[name] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
			}
			cfg, ds := config.LoadTreeFS(files, config.TreeOptions{})
			if ds.HasErrors() {
				t.Fatalf("configuration does not load: %v", ds.Err())
			}
			set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) {
				return providertest.New(), nil
			}})
			defer set.Close()
			var got []string
			for _, d := range planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{}) {
				got = append(got, fmt.Sprintf("%s:%d:%d %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
