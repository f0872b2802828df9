package tofutest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SuiteOptions shape a generated test suite.
type SuiteOptions struct {
	// Files and Runs are the number of test files and of run blocks in
	// each (the benchmark's 20 and 10).
	Files, Runs int
	// Mocked mocks the random and local providers (mock_provider) instead
	// of running their plugins.
	Mocked bool
}

// suiteModule is the module the generated suite tests: random names and
// numbers, and files written with the local provider (under out/).
const suiteModule = `terraform {
  required_providers {
    random = {
      source = "registry.terraform.io/hashicorp/random"
    }
    local = {
      source = "registry.terraform.io/hashicorp/local"
    }
  }
}

variable "label" {
  type = string
}

variable "replicas" {
  type    = number
  default = 2
}

resource "random_pet" "name" {
  keepers = {
    label = var.label
  }
}

resource "random_integer" "port" {
  count = var.replicas
  min   = 1024
  max   = 65535
  keepers = {
    label = var.label
  }
}

resource "local_file" "config" {
  count    = var.replicas
  filename = "${path.module}/out/${var.label}-${count.index}.conf"
  content  = "name=${random_pet.name.id} port=${random_integer.port[count.index].result}"
}

output "name" {
  value = random_pet.name.id
}

output "ports" {
  value = random_integer.port[*].result
}

output "files" {
  value = local_file.config[*].filename
}
`

// GenerateSuite writes into dir a module and opts.Files test files of
// opts.Runs run blocks each: applies that change the module's label (so
// every run replaces objects), assertions over outputs, resources and
// earlier runs' outputs, and a plan run in every five. The same suite runs
// under rig test, tofu test and terraform test.
func GenerateSuite(dir string, opts SuiteOptions) error {
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(suiteModule), 0o644); err != nil {
		return err
	}
	for f := range opts.Files {
		var b strings.Builder
		if opts.Mocked {
			b.WriteString("mock_provider \"random\" {}\n\nmock_provider \"local\" {}\n\n")
		}
		fmt.Fprintf(&b, "variables {\n  replicas = %d\n}\n", 1+f%3)
		for r := range opts.Runs {
			label := fmt.Sprintf("f%02d-r%02d", f, r)
			fmt.Fprintf(&b, "\nrun %q {\n", "run_"+label)
			if r%5 == 4 {
				b.WriteString("  command = plan\n")
			}
			fmt.Fprintf(&b, "  variables {\n    label = %q\n  }\n", label)
			fmt.Fprintf(&b, "  assert {\n    condition     = length(random_integer.port) == var.replicas\n    error_message = \"replicas\"\n  }\n")
			if r%5 != 4 {
				fmt.Fprintf(&b, "  assert {\n    condition     = alltrue([for f in output.files : endswith(f, \".conf\")])\n    error_message = \"files\"\n  }\n")
				fmt.Fprintf(&b, "  assert {\n    condition     = length(output.name) > 0\n    error_message = \"name\"\n  }\n")
			}
			b.WriteString("}\n")
		}
		name := filepath.Join(dir, "tests", fmt.Sprintf("suite_%02d.tftest.hcl", f))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
