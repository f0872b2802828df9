package eval

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// staticTree loads files with a static evaluator whose root variables are
// vars; it returns the tree and the loading diagnostics as
// "SUMMARY: DETAIL" lines.
func staticTree(t *testing.T, files map[string]string, vars map[string]cty.Value) (*config.Module, []string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
	}
	static := &Static{Env: lang.Env{Workspace: "staging"}, Root: func(_ *config.Module, v *config.Variable) (cty.Value, bool, diag.Diagnostics) {
		val, ok := vars[v.Name]
		return val, ok, nil
	}}
	cfg, ds := config.LoadTreeFS(fsys, config.TreeOptions{Static: static})
	var got []string
	for _, d := range ds {
		line := d.Summary + ": " + d.Detail
		if d.Subject != nil {
			line = d.Subject.Filename + ":" + strconv.Itoa(d.Subject.Start.Line) + ": " + line
		}
		got = append(got, line)
	}
	return cfg, got
}

func TestStaticModuleSources(t *testing.T) {
	child := `output "name" { value = "x" }`
	cases := map[string]struct {
		files   map[string]string
		vars    map[string]cty.Value
		sources map[string]string // call path → source
		diags   []string
	}{
		"variable and local": {
			files: map[string]string{
				"main.tf": `
variable "env" { type = string }
locals { dir = "./mod-${var.env}" }
module "m" { source = local.dir }`,
				"mod-a/main.tf": child,
			},
			vars:    map[string]cty.Value{"env": cty.StringVal("a")},
			sources: map[string]string{"m": "./mod-a"},
		},
		"default, workspace and a function": {
			files: map[string]string{
				"main.tf": `
variable "env" { default = "STAGING" }
module "m" { source = format("./%s", lower(var.env)) }
module "w" { source = "./${terraform.workspace}" }`,
				"staging/main.tf": child,
			},
			sources: map[string]string{"m": "./staging", "w": "./staging"},
		},
		"nested module passes its argument down": {
			files: map[string]string{
				"main.tf": `
variable "env" { type = string }
module "outer" {
  source = "./outer"
  env    = upper(var.env)
}`,
				"outer/main.tf": `
variable "env" { const = true }
module "inner" { source = "../${lower(var.env)}" }`,
				"b/main.tf": child,
			},
			vars:    map[string]cty.Value{"env": cty.StringVal("b")},
			sources: map[string]string{"outer": "./outer", "outer.inner": "../b"},
		},
		"required variable not given": {
			files: map[string]string{
				"main.tf": `
variable "env" { type = string }
locals { dir = "./mod-${var.env}" }
module "m" { source = local.dir }`,
			},
			diags: []string{
				"main.tf:2: Failed to request input from user for variable var.env: ",
				"main.tf:3: Unable to compute static value: local.dir depends on var.env which is not available",
				"main.tf:4: Unable to compute static value: module.m.source depends on local.dir which is not available",
			},
		},
		"resources, module outputs and const = false": {
			files: map[string]string{
				"main.tf": `
resource "terraform_data" "r" {}
variable "nc" {
  default = "./a"
  const   = false
}
module "m" { source = "./mod-${terraform_data.r.id}" }
module "n" { source = var.nc }
module "o" { source = module.m.name }`,
			},
			diags: []string{
				"main.tf:7: Dynamic value in static context: Unable to use terraform_data.r in static context, which is required by module.m.source",
				"main.tf:8: Unable to use variable in static context: The variable \"nc\" cannot be used in a static context, because it is declared as \"const = false\".",
				"main.tf:9: Module output not supported in static context: Unable to use module.m.name in static context, which is required by module.o.source",
			},
		},
		"const variable without a value": {
			files: map[string]string{
				"main.tf": `
variable "c" {
  type  = string
  const = true
}`,
			},
			diags: []string{"main.tf:2: Failed to request input from user for variable var.c: "},
		},
		"const variable of a child given a dynamic value": {
			files: map[string]string{
				"main.tf": `
resource "terraform_data" "r" {}
module "m" {
  source = "./m"
  c      = terraform_data.r.id
}`,
				"m/main.tf": `variable "c" { const = true }`,
			},
			diags: []string{
				"main.tf:5: Dynamic value in static context: Unable to use terraform_data.r in static context, which is required by module.m:var.c",
				// OpenTofu 1.12's note at the module call.
				"main.tf:3: Unable to compute static value: module.m: depends on module.m:var.c which is not available",
			},
		},
		"circular locals": {
			files: map[string]string{
				"main.tf": `
locals {
  a = local.b
  b = local.a
}
module "m" { source = local.a }`,
			},
			diags: []string{
				"main.tf:3: Circular reference: local.a is self referential",
				"main.tf:3: Unable to compute static value: local.a depends on local.b which is not available",
				"main.tf:6: Unable to compute static value: module.m.source depends on local.a which is not available",
			},
		},
		"sensitive source": {
			files: map[string]string{
				"main.tf": `
variable "s" {
  default   = "./a"
  sensitive = true
}
module "m" { source = var.s }`,
			},
			diags: []string{"main.tf:6: Sensitive value not allowed: Sensitive values, or values derived from sensitive values, cannot be used as module.m.source."},
		},
		"sensitive version": {
			files: map[string]string{
				"main.tf": `
variable "v" {
  default   = "1.0.0"
  sensitive = true
}
module "m" {
  source  = "example.com/a/b/c"
  version = var.v
}`,
			},
			diags: []string{"main.tf:8: Invalid version constraint: Sensitive values, or values derived from sensitive values, cannot be used as version arguments."},
		},
		"version from a variable, null meaning none": {
			files: map[string]string{
				"main.tf": `
variable "v" { default = null }
module "m" {
  source  = "./m"
  version = var.v
}`,
				"m/main.tf": child,
			},
			sources: map[string]string{"m": "./m"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, diags := staticTree(t, c.files, c.vars)
			if diff := cmp.Diff(c.diags, diags); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			for path, want := range c.sources {
				parent := cfg
				calls := strings.Split(path, ".")
				for _, name := range calls[:len(calls)-1] {
					parent = parent.Children[name]
				}
				call := parent.ModuleCalls[calls[len(calls)-1]]
				if call.Source != want {
					t.Errorf("%s: source %q, want %q", path, call.Source, want)
				}
				if parent.Children[call.Name] == nil {
					t.Errorf("%s: module not loaded", path)
				}
			}
		})
	}
}

func TestStaticVersionAndSettings(t *testing.T) {
	cfg, diags := staticTree(t, map[string]string{
		"main.tf": `
variable "v" {
  type  = string
  const = true
}
variable "pass" {
  type      = string
  sensitive = true
}
locals { state = "states/${var.v}.tfstate" }
terraform {
  backend "local" {
    path = local.state
  }
}
module "m" {
  source  = "example.com/net/vpc/aws"
  version = "~> ${var.v}"
}`,
	}, map[string]cty.Value{"v": cty.StringVal("1.2"), "pass": cty.StringVal("secret")})
	// The registry module is not installed: the only problem.
	if len(diags) != 1 || !strings.Contains(diags[0], "Module not installed") {
		t.Fatalf("diagnostics: %q", diags)
	}
	if got := cfg.ModuleCalls["m"].Version; got != "~> 1.2" {
		t.Errorf("version %q, want ~> 1.2", got)
	}
	b := cfg.Terraform.Backend
	attrs, _ := b.Config.JustAttributes()
	v, ds := b.StaticValue(attrs["path"].Expr)
	if ds.HasErrors() || v.AsString() != "states/1.2.tfstate" {
		t.Errorf("backend path %#v, %v", v, ds.Err())
	}
}
