package jsonformat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/provider"
)

// loadTestTree writes files into a temporary directory and loads the
// configuration tree there.
func loadTestTree(t *testing.T, files map[string]string) *config.Module {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, ds := config.LoadTree(dir, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatalf("loading configuration: %s", ds.Err())
	}
	return cfg
}

// TestNewConfigProviderConfigs checks which provider configurations
// the summary lists and which one each resource names: a configuration
// passed to a module or inherited by it is named by its key in the module
// that declares it, unless a module between them does not use the
// provider, which breaks the chain.
func TestNewConfigProviderConfigs(t *testing.T) {
	cfg := loadTestTree(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
provider "random" {}
provider "random" {
  alias = "two"
}
resource "random_pet" "a" {}
resource "terraform_data" "d" {}
module "child" {
  source    = "./child"
  providers = { random.alias1 = random.two }
}
module "legacy" {
  source = "./legacy"
}
module "mid" {
  source = "./mid"
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    random = {
      source                = "hashicorp/random"
      configuration_aliases = [random.alias1]
    }
  }
}
resource "random_id" "x" {
  provider = random.alias1
}
resource "random_pet" "y" {}
`,
		"legacy/main.tf": `
provider "random" {
  version = ">= 3.1"
}
resource "random_pet" "z" {}
module "inner" {
  source = "./inner"
}
`,
		"legacy/inner/main.tf": `resource "random_pet" "w" {}`,
		"mid/main.tf": `
module "leaf" {
  source = "./leaf"
}
`,
		"mid/leaf/main.tf": `resource "terraform_data" "l" {}`,
	})
	sum := NewConfig(cfg, map[addrs.Provider]*provider.Schemas{})

	const random = "registry.terraform.io/hashicorp/random"
	wantConfigs := map[string]ConfigProvider{
		"random":     {Name: "random", FullName: random, VersionConstraint: "~> 3.0"},
		"random.two": {Name: "random", FullName: random, Alias: "two", VersionConstraint: "~> 3.0"},
		"terraform":  {Name: "terraform", FullName: "terraform.io/builtin/terraform"},
		"module.legacy:random": {Name: "random", FullName: random, ModuleAddress: "module.legacy",
			VersionConstraint: ">= 3.1.0"},
		"module.mid.module.leaf:terraform": {Name: "terraform", FullName: "terraform.io/builtin/terraform",
			ModuleAddress: "module.mid.module.leaf"},
	}
	if diff := cmp.Diff(wantConfigs, sum.ProviderConfigs); diff != "" {
		t.Errorf("provider_config (-want +got):\n%s", diff)
	}

	keys := map[string]string{}
	var collect func(prefix string, m ConfigModule)
	collect = func(prefix string, m ConfigModule) {
		for _, r := range m.Resources {
			keys[prefix+r.Address] = r.ProviderConfigKey
		}
		for name, c := range m.ModuleCalls {
			collect(prefix+"module."+name+".", c.Module)
		}
	}
	collect("", sum.RootModule)
	wantKeys := map[string]string{
		"random_pet.a":                            "random",
		"terraform_data.d":                        "terraform",
		"module.child.random_id.x":                "random.two",
		"module.child.random_pet.y":               "random",
		"module.legacy.random_pet.z":              "module.legacy:random",
		"module.legacy.module.inner.random_pet.w": "module.legacy:random",
		"module.mid.module.leaf.terraform_data.l": "module.mid.module.leaf:terraform",
	}
	if diff := cmp.Diff(wantKeys, keys); diff != "" {
		t.Errorf("provider_config_key (-want +got):\n%s", diff)
	}
}

// TestNewConfigModule checks a module's resources, outputs, variables
// and calls, the called module included.
func TestNewConfigModule(t *testing.T) {
	cfg := loadTestTree(t, map[string]string{
		"main.tf": `
variable "n" {
  type        = number
  default     = 2
  sensitive   = true
  description = "How many."
}
variable "obj" {
  type    = object({ a = string, b = optional(number, 3) })
  default = { a = "x" }
}
variable "opt" {
  type    = string
  default = null
}
variable "req" {}
resource "terraform_data" "a" {
  count      = var.n
  input      = module.net.vpc_id
  depends_on = [module.net]
}
module "net" {
  source     = "./net"
  for_each   = { x = 1 }
  cidr       = each.key
  undeclared = 1
  depends_on = [terraform_data.b]
}
resource "terraform_data" "b" {}
output "o" {
  value       = terraform_data.a[0].output
  sensitive   = true
  description = "The first."
  depends_on  = [terraform_data.b]
}
`,
		"net/main.tf": `
variable "cidr" {}
output "vpc_id" {
  value = var.cidr
}
`,
	})
	tfSchema := &provider.Schemas{ResourceTypes: map[string]provider.Schema{"terraform_data": {Version: 1, Block: &provider.Block{
		Attributes: map[string]*provider.Attribute{"input": {Type: cty.DynamicPseudoType, Optional: true}},
	}}}}
	schemas := map[addrs.Provider]*provider.Schemas{}
	AddConfigSchemas(schemas, cfg, func(p addrs.Provider) (*provider.Schemas, bool) {
		return tfSchema, p == addrs.NewBuiltInProvider("terraform")
	})
	got, err := json.MarshalIndent(NewConfig(cfg, schemas), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "provider_config": {
    "terraform": {
      "name": "terraform",
      "full_name": "terraform.io/builtin/terraform"
    }
  },
  "root_module": {
    "outputs": {
      "o": {
        "sensitive": true,
        "expression": {
          "references": [
            "terraform_data.a[0].output",
            "terraform_data.a[0]",
            "terraform_data.a"
          ]
        },
        "depends_on": [
          "terraform_data.b"
        ],
        "description": "The first."
      }
    },
    "resources": [
      {
        "address": "terraform_data.a",
        "mode": "managed",
        "type": "terraform_data",
        "name": "a",
        "provider_config_key": "terraform",
        "expressions": {
          "input": {
            "references": [
              "module.net.vpc_id",
              "module.net"
            ]
          }
        },
        "schema_version": 1,
        "count_expression": {
          "references": [
            "var.n"
          ]
        },
        "depends_on": [
          "module.net"
        ]
      },
      {
        "address": "terraform_data.b",
        "mode": "managed",
        "type": "terraform_data",
        "name": "b",
        "provider_config_key": "terraform",
        "schema_version": 1
      }
    ],
    "module_calls": {
      "net": {
        "source": "./net",
        "expressions": {
          "cidr": {
            "references": [
              "each.key"
            ]
          }
        },
        "for_each_expression": {
          "constant_value": {
            "x": 1
          }
        },
        "module": {
          "outputs": {
            "vpc_id": {
              "expression": {
                "references": [
                  "var.cidr"
                ]
              }
            }
          },
          "variables": {
            "cidr": {
              "required": true
            }
          }
        },
        "depends_on": [
          "terraform_data.b"
        ]
      }
    },
    "variables": {
      "n": {
        "type": "number",
        "default": 2,
        "description": "How many.",
        "sensitive": true
      },
      "obj": {
        "type": [
          "object",
          {
            "a": "string",
            "b": "number"
          },
          [
            "b"
          ]
        ],
        "default": {
          "a": "x",
          "b": 3
        }
      },
      "opt": {
        "type": "string",
        "default": null
      },
      "req": {
        "required": true
      }
    }
  }
}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("configuration (-want +got):\n%s", diff)
	}
}
