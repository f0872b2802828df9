package planner_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/diag"
)

// TestPlanSelfReferences plans configurations in which something would wait
// for its own result: each is a diagnostic with its file and line, never a
// hang (a plan that does not return within a minute fails the test).
func TestPlanSelfReferences(t *testing.T) {
	const child = `
-- m/main.tf --
variable "in" {}
output "out" { value = var.in }
`
	tests := []struct {
		name    string
		files   string // txtar
		summary string
		at      string // file:line
	}{
		{"local", `
-- main.tf --
locals {
  a = local.a
}
`, "Self-referencing local value", "main.tf:2"},
		{"local inside a template and a for expression", `
-- main.tf --
locals {
  a = "${local.b}-x"
  b = [for v in local.b : v]
}
`, "Self-referencing local value", "main.tf:3"},
		{"local of a child module", `
-- main.tf --
module "m" {
  source = "./m"
}
-- m/main.tf --
locals {
  z = try(local.z, 1)
}
`, "Self-referencing local value", "m/main.tf:2"},
		{"module output feeding its own input", `
-- main.tf --
module "m" {
  source = "./m"
  in     = module.m.out
}
` + child, "Cycle: module.m.var.in, module.m.output.out", "main.tf:3"},
		{"local feeding a module whose output it is", `
-- main.tf --
locals { l = module.m.out }
module "m" {
  source = "./m"
  in     = local.l
}
` + child, "Cycle: local.l, module.m.var.in, module.m.output.out", "main.tf:1"},
		{"module count referring to the module", `
-- main.tf --
module "m" {
  source = "./m"
  count  = length(module.m)
  in     = 1
}
` + child, "Cycle: module.m, module.m.output.out", "main.tf:3"},
		{"resource count referring to the resource", `
-- main.tf --
resource "test_thing" "a" {
  count = length(test_thing.a)
}
`, "Self-referential block", "main.tf:2"},
		{"resource for_each referring to the resource", `
-- main.tf --
resource "test_thing" "a" {
  for_each = { for k, v in test_thing.a : k => v }
}
`, "Self-referential block", "main.tf:2"},
		{"replace_triggered_by the resource itself", `
-- main.tf --
resource "test_thing" "a" {
  lifecycle {
    replace_triggered_by = [test_thing.a]
  }
}
`, "Self-referential block", "main.tf:3"},
		{"provider key from the resource itself", `
-- main.tf --
provider "test" {
  alias    = "x"
  for_each = toset(["a"])
}
resource "test_thing" "a" {
  provider = test.x[test_thing.a.key]
  key      = "a"
}
`, "Self-referential block", "main.tf:6"},
		{"provider configured from its own resource", `
-- main.tf --
provider "test" {
  region = test_thing.a.id
}
resource "test_thing" "a" {}
`, `Cycle: test_thing.a, provider["registry.terraform.io/hashicorp/test"]`, "main.tf:4"},
		{"provider configured from its own resource through a local", `
-- main.tf --
locals { r = test_thing.a.id }
provider "test" {
  region = local.r
}
resource "test_thing" "a" {}
`, `Cycle: local.r, provider["registry.terraform.io/hashicorp/test"], test_thing.a`, "main.tf:1"},
		{"provider for_each from a local referring to itself", `
-- main.tf --
locals { k = local.k }
provider "test" {
  alias    = "x"
  for_each = local.k
}
`, "Self-referencing local value", "main.tf:1"},
		{"data source referring to itself", `
-- main.tf --
data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = data.terraform_remote_state.s.outputs.p
  }
}
`, "Self-referential block", "main.tf:4"},
		{"check block's data source referring to itself", `
-- main.tf --
check "c" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config = {
      path = data.terraform_remote_state.s.outputs.p
    }
  }
  assert {
    condition     = data.terraform_remote_state.s.outputs.p != ""
    error_message = "x"
  }
}
`, "Self-referential block", "main.tf:5"},
		{"import id from its own target", `
-- main.tf --
resource "test_thing" "a" {}
import {
  to = test_thing.a
  id = test_thing.a.id
}
`, "Invalid import id argument", "main.tf:4"},
		{"import for_each over its own target", `
-- main.tf --
resource "test_thing" "a" {
  for_each = toset(["x"])
}
import {
  for_each = test_thing.a
  to       = test_thing.a[each.key]
  id       = each.key
}
`, "Invalid for_each argument", "main.tf:5"},
		{"output referring to itself", `
-- main.tf --
output "o" {
  value      = 1
  depends_on = [output.o]
}
`, "Reference to undeclared resource", "main.tf:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fx := loadFixture(t, txtar.Parse([]byte(tt.files)))
			done := make(chan diag.Diagnostics, 1)
			go func() {
				_, ds := makePlan(t, fx)
				done <- ds
			}()
			var ds diag.Diagnostics
			select {
			case ds = <-done:
			case <-time.After(time.Minute):
				t.Fatal("planning did not return: it waits for itself")
			}
			var got []string
			for _, d := range ds {
				at := ""
				if d.Subject != nil {
					at = fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line)
				}
				if d.Summary == tt.summary && at == tt.at {
					return
				}
				got = append(got, at+": "+d.Summary)
			}
			t.Errorf("diagnostics:\n%s\nwant %s: %s", strings.Join(got, "\n"), tt.at, tt.summary)
		})
	}
}
