package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestProviderForEachDiagnostics loads configurations that use provider
// for_each, correctly or not, and compares every diagnostic
// ("severity file:line: summary: start of detail").
func TestProviderForEachDiagnostics(t *testing.T) {
	const providers = `
provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}
provider "aws" {
  alias = "single"
}
variable "regions" { default = { a = "eu-west-1" } }
`
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"valid references", map[string]string{"main.tf": providers + `
resource "aws_x" "a" {
  for_each = toset(["a"])
  provider = aws.by_region[each.key]
}
data "aws_y" "b" {
  provider = aws.by_region["a"]
}
resource "aws_x" "c" {
  provider = aws.single
}
module "m" {
  source    = "./m"
  for_each  = toset(["a"])
  providers = { aws = aws.by_region[each.key] }
}`, "m/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}"}, nil},
		{"for_each without alias", map[string]string{"main.tf": `
provider "aws" {
  for_each = toset(["a"])
}`}, []string{`error main.tf:3: Alias required when using "for_each": The for_each argument is allowed only for provider configurations with an alias.`}},
		{"reference without key", map[string]string{"main.tf": providers + `
resource "aws_x" "a" {
  provider = aws.by_region
}`}, []string{"error main.tf:13: Invalid resource provider configuration: A reference to a provider configuration which uses for_each requires an instance key."}},
		{"key on a configuration without for_each", map[string]string{"main.tf": providers + `
resource "aws_x" "a" {
  provider = aws.single["a"]
}`}, []string{"error main.tf:13: Invalid resource provider configuration: An instance key can be specified only for a provider configuration that uses for_each."}},
		{"key on an undeclared configuration", map[string]string{"main.tf": `
resource "aws_x" "a" {
  count    = 2
  provider = aws.nope[count.index]
}`}, []string{`error main.tf:4: Invalid resource provider configuration: This module doesn't declare a provider "aws" block with alias = "nope", which is required for use with for_each.`}},
		{"key without alias", map[string]string{"main.tf": `
resource "aws_x" "a" {
  provider = aws[var.k]
}`}, []string{
			"error main.tf:3: Invalid provider configuration reference: Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
			"error main.tf:3: Invalid resource provider configuration: An instance key can be specified only for a provider configuration which has an alias and uses for_each.",
		}},
		{"module call without key", map[string]string{"main.tf": providers + `
module "m" {
  source    = "./m"
  providers = { aws = aws.by_region }
}`, "m/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}"}, []string{"error main.tf:14: Invalid module provider configuration: A reference to a provider configuration which uses for_each requires an instance key."}},
		{"key on the child side", map[string]string{"main.tf": providers + `
module "m" {
  source    = "./m"
  for_each  = toset(["a"])
  providers = { aws.x["a"] = aws.by_region[each.key] }
}`, "m/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}"}, []string{"error main.tf:15: Invalid module provider configuration: Instance keys are not allowed on the left side of a provider configuration assignment."}},
		{"same for_each as the resource", map[string]string{"main.tf": providers + `
resource "aws_x" "a" {
  for_each = var.regions
  provider = aws.by_region[each.key]
}
data "aws_x" "d" {
  for_each = var.regions
  provider = aws.by_region[each.key]
}
resource "aws_x" "b" {
  for_each = (var.regions)
  provider = aws.by_region[each.key]
}
resource "aws_x" "c" {
  for_each = { for k, v in var.regions : k => v if v != "x" }
  provider = aws.by_region[each.key]
}`}, []string{
			"warning main.tf:13: Provider configuration for_each matches resource: This provider configuration uses the same for_each expression as a resource, which means that subsequent removal of elements from this collection would cause a planning error.",
			"warning main.tf:21: Provider configuration for_each matches resource: This provider configuration uses the same for_each expression as a resource, which means that subsequent removal of elements from this collection would cause a planning error.",
		}},
		{"same for_each as the module call", map[string]string{"main.tf": providers + `
module "m" {
  source    = "./m"
  for_each  = var.regions
  providers = { aws = aws.by_region[each.key] }
}`, "m/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}"}, []string{"warning main.tf:14: Provider configuration for_each matches module: This provider configuration uses the same for_each expression as a module, which means that subsequent removal of elements from this collection would cause a planning error."}},
		{"nested module", map[string]string{"main.tf": `module "m" { source = "./m" }`, "m/main.tf": providers + `
resource "aws_x" "a" {
  provider = aws.by_region
}`}, []string{
			// The empty aws.single block of the child module.
			`warning m/main.tf:7: Redundant empty provider block: Earlier versions of Terraform and OpenTofu used empty provider blocks`,
			"error m/main.tf:13: Invalid resource provider configuration: A reference to a provider configuration which uses for_each requires an instance key.",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := LoadTreeFS(mapFS(tc.files), TreeOptions{})
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s %s:%d: %s: %s", d.Severity, d.Subject.Filename, d.Subject.Start.Line, d.Summary, d.Detail))
			}
			// Each diagnostic starts as wanted (details go on).
			for i := range got {
				if i < len(tc.want) && strings.HasPrefix(got[i], tc.want[i]) {
					got[i] = tc.want[i]
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProviderConfigRefKeys decodes the forms of a reference to a provider
// configuration instance.
func TestProviderConfigRefKeys(t *testing.T) {
	tests := []struct {
		src, name, alias, key string // key: the key expression's source, "" without
	}{
		{`aws`, "aws", "", ""},
		{`aws.west`, "aws", "west", ""},
		{`aws["west"]`, "aws", "west", ""},
		{`aws.west["a"]`, "aws", "west", `aws.west["a"]`},
		{`aws.west[each.key]`, "aws", "west", `each.key`},
		{`aws.west[count.index % 2]`, "aws", "west", `count.index % 2`},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			src := []byte("provider = " + tc.src + "\n")
			f, ds := hclsyntax.ParseConfig(src, "x.tf", hcl.Pos{Line: 1, Column: 1})
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			attrs, _ := f.Body.JustAttributes()
			ref, ds := decodeProviderConfigRef(attrs["provider"].Expr, "provider")
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			gotKey := ""
			if ref.KeyExpr != nil {
				r := ref.KeyExpr.Range()
				gotKey = string(src[r.Start.Byte:r.End.Byte])
			}
			if ref.Name != tc.name || ref.Alias != tc.alias || gotKey != tc.key {
				t.Errorf("got %s %s key %q, want %s %s key %q", ref.Name, ref.Alias, gotKey, tc.name, tc.alias, tc.key)
			}
		})
	}
	// JSON gives the reference as a string.
	m, ds := LoadFiles(map[string][]byte{"main.tf.json": []byte(`{"resource": {"aws_x": {"a": {"for_each": {"a": 1}, "provider": "aws.by_region[each.key]"}}}}`)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	ref := m.ManagedResources[managed("aws_x", "a")].ProviderConfigRef
	if ref == nil || ref.String() != "aws.by_region" || ref.KeyExpr == nil || len(ref.KeyExpr.Variables()) != 1 {
		t.Errorf("JSON reference decoded as %+v", ref)
	}
}
