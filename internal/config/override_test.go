package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

// bodySummary renders a body's content against schema: each argument's
// literal value, then each block's type (and for nested blocks their own
// arguments), in a stable order.
func bodySummary(t *testing.T, body hcl.Body, schema *hcl.BodySchema) string {
	t.Helper()
	content, diags := body.Content(schema)
	if diags.HasErrors() {
		t.Fatalf("content: %s", diags.Error())
	}
	var parts []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range content.Attributes {
			if !yield(n) {
				return
			}
		}
	}) {
		v, _ := content.Attributes[name].Expr.Value(nil)
		parts = append(parts, fmt.Sprintf("%s=%s", name, exprString(v)))
	}
	for _, b := range content.Blocks {
		attrs, _ := b.Body.JustAttributes()
		var inner []string
		for _, n := range sortedAttrNames(attrs) {
			v, _ := attrs[n].Expr.Value(nil)
			inner = append(inner, n+"="+exprString(v))
		}
		parts = append(parts, fmt.Sprintf("%s{%s}", strings.Join(append([]string{b.Type}, b.Labels...), " "), strings.Join(inner, " ")))
	}
	return strings.Join(parts, " ")
}

func exprString(v cty.Value) string {
	switch {
	case v == cty.NilVal:
		return "<nil>"
	case v.IsNull():
		return "null"
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	}
	return v.GoString()
}

func exprValue(e hcl.Expression) string {
	if e == nil {
		return "<nil>"
	}
	v, _ := e.Value(nil)
	return exprString(v)
}

var resA = addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "a"}

func TestOverrideMerge(t *testing.T) {
	schema := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "input"}, {Name: "triggers_replace"}, {Name: "other", Required: true}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "nested"}, {Type: "other"}},
	}
	tests := []struct {
		name  string
		files map[string]string
		got   func(t *testing.T, m *Module) string
		want  string
	}{
		{
			name: "arguments replace, nested blocks replace per type",
			files: map[string]string{
				"main.tf": `resource "terraform_data" "a" {
  input = "base"
  other = "kept"
  nested { n = 1 }
  nested { n = 2 }
  other { o = 1 }
}`,
				"override.tf": `resource "terraform_data" "a" {
  input = "over"
  nested { n = 3 }
}`,
			},
			got:  func(t *testing.T, m *Module) string { return bodySummary(t, m.ManagedResources[resA].Config, schema) },
			want: "input=over other=kept other{o=1} nested{n=3}",
		},
		{
			name: "a required argument may come from the override",
			files: map[string]string{
				"main.tf":     `resource "terraform_data" "a" {}`,
				"override.tf": `resource "terraform_data" "a" { other = "x" }`,
			},
			got:  func(t *testing.T, m *Module) string { return bodySummary(t, m.ManagedResources[resA].Config, schema) },
			want: "other=x",
		},
		{
			name: "override files apply in name order, json and tofu forms too",
			files: map[string]string{
				"main.tf":              `resource "terraform_data" "a" { other = 0 }`,
				"b_override.tf.json":   `{"resource": {"terraform_data": {"a": {"input": "b"}}}}`,
				"a_override.tofu":      `resource "terraform_data" "a" { input = "a" }`,
				"c_override.tofu.json": `{"resource": {"terraform_data": {"a": {"triggers_replace": "c"}}}}`,
				"override.tf":          `resource "terraform_data" "a" { triggers_replace = "plain" }`,
				"zz_override_not.tf":   `resource "terraform_data" "z" {}`,
			},
			got:  func(t *testing.T, m *Module) string { return bodySummary(t, m.ManagedResources[resA].Config, schema) },
			want: "input=b other=0 triggers_replace=plain",
		},
		{
			name: "lifecycle merges per argument; provisioners and connection replace",
			files: map[string]string{
				"main.tf": `resource "terraform_data" "a" {
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [input]
  }
  provisioner "local-exec" { command = "one" }
  provisioner "local-exec" { command = "two" }
  connection { host = "base" }
}`,
				"override.tf": `resource "terraform_data" "a" {
  lifecycle {
    prevent_destroy = true
  }
  provisioner "local-exec" { command = "three" }
}`,
			},
			got: func(t *testing.T, m *Module) string {
				r := m.ManagedResources[resA]
				lc := r.Managed
				return fmt.Sprintf("cbd=%v pd=%v ignore=%d provisioners=%d conn=%v",
					lc.CreateBeforeDestroy, exprText(lc.PreventDestroy), len(lc.IgnoreChanges), len(r.Provisioners), r.Connection != nil)
			},
			want: "cbd=true pd=cty.True ignore=1 provisioners=1 conn=true",
		},
		{
			name: "count replaces for_each",
			files: map[string]string{
				"main.tf":     `resource "terraform_data" "a" { for_each = {} }`,
				"override.tf": `resource "terraform_data" "a" { count = 2 }`,
			},
			got: func(t *testing.T, m *Module) string {
				r := m.ManagedResources[resA]
				return fmt.Sprintf("count=%s for_each=%v", exprValue(r.Count), r.ForEach != nil)
			},
			want: "count=2 for_each=false",
		},
		{
			name: "a for_each override leaves a count in place, as in OpenTofu",
			files: map[string]string{
				"main.tf":     `resource "terraform_data" "a" { count = 1 }`,
				"override.tf": `resource "terraform_data" "a" { for_each = {} }`,
			},
			got: func(t *testing.T, m *Module) string {
				r := m.ManagedResources[resA]
				return fmt.Sprintf("count=%s for_each=%v", exprValue(r.Count), r.ForEach != nil)
			},
			want: "count=1 for_each=false",
		},
		{
			name: "provider reference replaced",
			files: map[string]string{
				"main.tf":     `resource "terraform_data" "a" {}`,
				"override.tf": `resource "terraform_data" "a" { provider = terraform.other }`,
			},
			got:  func(t *testing.T, m *Module) string { return m.ManagedResources[resA].ProviderConfigRef.String() },
			want: "terraform.other",
		},
		{
			name: "locals merge per name whatever block they are in",
			files: map[string]string{
				"main.tf":     "locals {\n  a = 1\n  b = 2\n}\nlocals {\n  c = 3\n}\n",
				"override.tf": "locals {\n  c = 30\n  a = 10\n}\n",
			},
			got: func(t *testing.T, m *Module) string {
				return fmt.Sprintf("a=%s@%d b=%s c=%s", exprValue(m.Locals["a"].Expr), m.Locals["a"].DeclRange.Start.Line,
					exprValue(m.Locals["b"].Expr), exprValue(m.Locals["c"].Expr))
			},
			want: "a=10@3 b=2 c=30",
		},
		{
			name: "variable type override converts the base default",
			files: map[string]string{
				"main.tf":     "variable \"v\" {\n  type    = number\n  default = 1\n  description = \"d\"\n}\n",
				"override.tf": "variable \"v\" {\n  type = string\n  sensitive = true\n}\n",
			},
			got: func(t *testing.T, m *Module) string {
				v := m.Variables["v"]
				return fmt.Sprintf("type=%s default=%s desc=%s sensitive=%v", v.Type.FriendlyName(), exprString(v.Default), v.Description, v.Sensitive)
			},
			want: "type=string default=1 desc=d sensitive=true",
		},
		{
			name: "variable default override keeps the base type",
			files: map[string]string{
				"main.tf":     "variable \"v\" {\n  type = list(string)\n}\n",
				"override.tf": "variable \"v\" {\n  default = [\"a\"]\n}\n",
			},
			got: func(t *testing.T, m *Module) string {
				v := m.Variables["v"]
				return fmt.Sprintf("required=%v default=%s", v.Required(), v.Default.Type().FriendlyName())
			},
			want: "required=false default=list of string",
		},
		{
			name: "output arguments replace",
			files: map[string]string{
				"main.tf":     "output \"o\" {\n  value = 1\n  description = \"d\"\n}\n",
				"override.tf": "output \"o\" {\n  value = 2\n  sensitive = true\n}\n",
			},
			got: func(t *testing.T, m *Module) string {
				o := m.Outputs["o"]
				return fmt.Sprintf("value=%s desc=%s sensitive=%v", exprValue(o.Expr), o.Description, o.Sensitive)
			},
			want: "value=2 desc=d sensitive=true",
		},
		{
			name: "module call: source and arguments replace, count replaces for_each",
			files: map[string]string{
				"main.tf":     "module \"m\" {\n  source = \"./a\"\n  for_each = {}\n  x = 1\n  y = 2\n}\n",
				"override.tf": "module \"m\" {\n  source = \"./b\"\n  count = 1\n  y = 3\n}\n",
			},
			got: func(t *testing.T, m *Module) string {
				mc := m.ModuleCalls["m"]
				attrs, _ := mc.Config.JustAttributes()
				return fmt.Sprintf("source=%s line=%d count=%s for_each=%v x=%s y=%s", mc.Source, mc.SourceRange.Start.Line,
					exprValue(mc.Count), mc.ForEach != nil, exprValue(attrs["x"].Expr), exprValue(attrs["y"].Expr))
			},
			want: "source=./b line=2 count=1 for_each=false x=1 y=3",
		},
		{
			name: "default provider without a base is added; configuration merges",
			files: map[string]string{
				"main.tf":     "provider \"aws\" {\n  alias = \"w\"\n  region = \"a\"\n  profile = \"p\"\n}\n",
				"override.tf": "provider \"aws\" {\n  alias = \"w\"\n  region = \"b\"\n}\nprovider \"google\" {\n  project = \"x\"\n}\n",
			},
			got: func(t *testing.T, m *Module) string {
				attrs, _ := m.ProviderConfigs["aws.w"].Config.JustAttributes()
				return fmt.Sprintf("region=%s profile=%s google=%v", exprValue(attrs["region"].Expr), exprValue(attrs["profile"].Expr), m.ProviderConfigs["google"] != nil)
			},
			want: "region=b profile=p google=true",
		},
		{
			name: "terraform block: required_version replaced, required_providers per provider, backend replaced",
			files: map[string]string{
				"main.tf": `terraform {
  required_version = ">= 1.0"
  required_providers {
    aws    = { source = "hashicorp/aws", version = "~> 4.0" }
    google = { source = "hashicorp/google" }
  }
  backend "s3" {}
}
terraform {
  required_version = "< 2.0"
}`,
				"override.tf": `terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = { source = "acme/aws" }
  }
  backend "local" {}
}`,
			},
			got: func(t *testing.T, m *Module) string {
				tf := m.Terraform
				var vs []string
				for _, v := range tf.RequiredVersion {
					vs = append(vs, v.Constraint)
				}
				return fmt.Sprintf("version=%v aws=%s %q google=%s backend=%s", vs,
					tf.RequiredProviders["aws"].Provider, tf.RequiredProviders["aws"].Version,
					tf.RequiredProviders["google"].Provider, tf.Backend.Type)
			},
			want: `version=[>= 1.5] aws=registry.terraform.io/acme/aws "" google=registry.terraform.io/hashicorp/google backend=local`,
		},
		{
			name: "a .tofu file hides the .tf file of the same name, not other forms",
			files: map[string]string{
				"main.tf":         `resource "terraform_data" "a" { input = "tf" }`,
				"main.tofu":       `resource "terraform_data" "a" { input = "tofu" }`,
				"extra.tf.json":   `{"resource": {"terraform_data": {"b": {}}}}`,
				"extra.tofu":      `resource "terraform_data" "c" {}`,
				"other.tf.json":   `{"resource": {"terraform_data": {"d": {"input": "tf"}}}}`,
				"other.tofu.json": `{"resource": {"terraform_data": {"d": {"input": "tofu"}}}}`,
			},
			got: func(t *testing.T, m *Module) string {
				var names []string
				for _, r := range m.Resources() {
					names = append(names, r.Addr.Name)
				}
				d := m.ManagedResources[addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: "d"}]
				a, _ := m.ManagedResources[resA].Config.JustAttributes()
				dAttrs, _ := d.Config.JustAttributes()
				return fmt.Sprintf("%v a=%s d=%s files=%d", names, exprValue(a["input"].Expr), exprValue(dAttrs["input"].Expr), len(m.Sources))
			},
			want: "[a b c d] a=tofu d=tofu files=4",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string][]byte{}
			for name, src := range tt.files {
				files[name] = []byte(src)
			}
			m, diags := LoadFiles(files)
			if diags.HasErrors() {
				t.Fatalf("diagnostics:\n%s", formatDiags(diags))
			}
			if diff := cmp.Diff(tt.want, tt.got(t, m)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// exprText returns the source text of a literal expression ("" for nil).
func exprText(e hcl.Expression) string {
	if e == nil {
		return ""
	}
	v, _ := e.Value(nil)
	return v.GoString()
}
