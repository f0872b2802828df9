package command

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

// sensitivePrelude declares the sensitive values every case of
// TestSensitiveValueInEveryPosition may use: a string variable, a number,
// a list and a map, and a provider-sensitive attribute (test_secret's
// password, "s3cr3t-id-1" once created). CANARY stands for the case's own
// secret text.
const sensitivePrelude = `
variable "secret" {
  type      = string
  default   = "CANARY"
  sensitive = true
}
variable "secret_num" {
  type      = number
  default   = 3
  sensitive = true
}
variable "secret_list" {
  type      = list(string)
  default   = ["CANARY-a", "CANARY-b"]
  sensitive = true
}
variable "secret_map" {
  type      = map(string)
  default   = { k = "CANARY-v" }
  sensitive = true
}
resource "test_secret" "src" {
  key = "src"
}
`

// TestSensitiveValueInEveryPosition plans and applies configurations that
// put sensitive values, from variables and from a provider's schema, in
// every place an expression may stand: no run panics, the secret is never
// printed, and what is not allowed is a diagnostic worded as OpenTofu and
// Terraform word it.
func TestSensitiveValueInEveryPosition(t *testing.T) {
	tests := []struct {
		name   string
		config string
		// wantErr is a diagnostic summary every plan must report (and
		// then apply too); empty when plan and apply succeed.
		wantErr string
		// also are further texts the plan's output must contain.
		also []string
		// applyErr is a diagnostic summary the apply (only) must report.
		applyErr string
		// reapply applies again with the secret changed to this value
		// (CANARY standing for the case's secret), which must succeed.
		reapply string
	}{
		{name: "resource argument", config: `resource "test_thing" "a" { replace_key = var.secret }`},
		{name: "provider-sensitive attribute as an argument", config: `resource "test_thing" "a" { replace_key = test_secret.src.password }`},
		{name: "template", config: `resource "test_thing" "a" { replace_key = "pw=${var.secret}/${test_secret.src.password}" }`},
		{name: "heredoc template with directives", config: `resource "test_thing" "a" {
  replace_key = <<-EOT
    %{ for s in var.secret_list }${s}
    %{ endfor }
  EOT
}`},
		{name: "local value", config: `locals { l = upper(var.secret) }
resource "test_thing" "a" { replace_key = local.l }`},
		{name: "for expression", config: `resource "test_thing" "a" { replace_key = join(",", [for s in var.secret_list : upper(s)]) }`},
		{name: "for expression over a sensitive map", config: `resource "test_thing" "a" { replace_key = jsonencode({ for k, v in var.secret_map : k => v }) }`},
		{name: "splat", config: `resource "test_thing" "a" { ref = test_secret.src[*].password }`},
		{name: "conditional", config: `resource "test_thing" "a" { replace_key = var.secret == "x" ? "a" : var.secret }`},
		{name: "conditional on a provider-sensitive attribute", config: `resource "test_thing" "a" { replace_key = test_secret.src.password != "" ? "set" : "unset" }`},
		{name: "object key", config: `resource "test_thing" "a" { replace_key = jsonencode({ (var.secret) = 1 }) }`},
		{name: "count from a sensitive number", config: `resource "test_thing" "a" {
  count = var.secret_num
  replace_key = "x${count.index}"
}`},
		{name: "count from the length of a sensitive value", config: `resource "test_thing" "a" {
  count = length(var.secret)
  replace_key = "x${count.index}"
}`},
		{name: "for_each over a sensitive set", config: `resource "test_thing" "a" {
  for_each = toset(var.secret_list)
}`, wantErr: "Invalid for_each argument"},
		{name: "for_each over a sensitive map", config: `resource "test_thing" "a" {
  for_each = var.secret_map
}`, wantErr: "Invalid for_each argument"},
		{name: "for_each with sensitive values", config: `resource "test_thing" "a" {
  for_each = { a = var.secret }
  replace_key = each.value
}`},
		{name: "dynamic block", config: `resource "test_secret" "a" {
  dynamic "credential" {
    for_each = var.secret_list
    content {
      user = "u"
      pin  = credential.value
    }
  }
}`},
		{name: "nested block argument", config: `resource "test_secret" "a" {
  credential {
    user = var.secret
    pin  = var.secret
  }
}`},
		{name: "module input and output", config: `module "m" {
  source = "./m"
  in     = var.secret
  pw     = test_secret.src.password
}
resource "test_thing" "a" { replace_key = "${module.m.out}${module.m.pw}" }`},
		{name: "root output not marked sensitive", config: `output "o" { value = test_secret.src.password }`,
			wantErr: "Output refers to sensitive values"},
		{name: "root output marked sensitive", config: `output "o" {
  value     = { a = var.secret, b = test_secret.src.password }
  sensitive = true
}`},
		{name: "nonsensitive", config: `resource "test_thing" "a" { replace_key = length(nonsensitive(var.secret)) }`},
		{name: "sensitive() of a literal", config: `resource "test_thing" "a" { replace_key = sensitive("CANARY") }`},
		{name: "provider configuration", config: `provider "test" { region = var.secret }
resource "test_thing" "a" { replace_key = "x" }`},
		{name: "provider-defined function", config: `terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}
resource "test_thing" "a" { replace_key = provider::test::upper(var.secret) }`},
		{name: "provider-defined function with a provider-sensitive argument", config: `terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}
resource "test_thing" "a" { replace_key = provider::test::upper(test_secret.src.password) }`},
		{name: "templatestring", config: `resource "test_thing" "a" { replace_key = templatestring("pw=$${s}", { s = var.secret }) }`},
		{name: "terraform_data input and output", config: `resource "terraform_data" "d" { input = var.secret }
resource "test_thing" "a" { replace_key = terraform_data.d.output }`},
		{name: "replace_triggered_by a sensitive object", config: `resource "terraform_data" "d" { input = test_secret.src.password }
resource "test_thing" "a" {
  lifecycle {
    replace_triggered_by = [terraform_data.d]
  }
}`},
		{name: "replace_triggered_by a sensitive attribute", config: `resource "test_secret" "t" {
  key   = "t"
  token = var.secret
  credential {
    pin = var.secret
  }
}
resource "test_thing" "a" {
  lifecycle {
    replace_triggered_by = [test_secret.t.password, test_secret.t.credential[0].pin, test_secret.t.token]
  }
}`, reapply: "CANARY-2"},
		{name: "replace_triggered_by into a sensitive map", config: `resource "test_thing" "m" {
  ref = values(var.secret_map)
}
resource "test_thing" "a" {
  lifecycle {
    replace_triggered_by = [test_thing.m.ref[0]]
  }
}`, reapply: "CANARY-2"},
		{name: "variable validation that holds", config: `variable "pw" {
  default   = "CANARY-long-enough"
  sensitive = true
  validation {
    condition     = length(var.pw) >= 12
    error_message = "Too short."
  }
}`},
		{name: "variable validation that fails", config: `variable "pw" {
  default   = "CANARY"
  sensitive = true
  validation {
    condition     = length(var.pw) >= 12
    error_message = "Too short."
  }
}`, wantErr: "Invalid value for variable", also: []string{"Too short."}},
		{name: "variable validation whose message is sensitive", config: `variable "pw" {
  default   = "CANARY"
  sensitive = true
  validation {
    condition     = length(var.pw) >= 12
    error_message = "${var.pw} is too short."
  }
}`, wantErr: "Error message refers to sensitive values",
			also: []string{"The error message included a sensitive value, so it will not be displayed."}},
		{name: "precondition over a sensitive value", config: `resource "test_thing" "a" {
  lifecycle {
    precondition {
      condition     = length(var.secret) > 1 && test_secret.src.password != ""
      error_message = "Unexpected."
    }
  }
}`},
		{name: "precondition that fails with a sensitive message", config: `resource "test_thing" "a" {
  lifecycle {
    precondition {
      condition     = var.secret == "other"
      error_message = "Got ${var.secret}."
    }
  }
}`, wantErr: "Resource precondition failed",
			also: []string{"Error message refers to sensitive values", "This check failed, but has an invalid error message"}},
		{name: "postcondition over self's sensitive attribute", config: `resource "test_secret" "a" {
  lifecycle {
    postcondition {
      condition     = self.password != "nope"
      error_message = "Unexpected ${self.password}."
    }
  }
}`},
		{name: "check block assertion", config: `check "c" {
  assert {
    condition     = var.secret == "other"
    error_message = "Got ${var.secret}."
  }
}`, also: []string{"Check block assertion failed", "Error message refers to sensitive values"}},
		{name: "output precondition", config: `output "o" {
  value     = var.secret
  sensitive = true
  precondition {
    condition     = var.secret == "other"
    error_message = "Got ${var.secret}."
  }
}`, wantErr: "Module output value precondition failed"},
		{name: "local-exec provisioner", config: `resource "test_thing" "a" {
  replace_key = "x"
  provisioner "local-exec" {
    command = "echo ${var.secret}"
  }
}`},
		{name: "local-exec provisioner that fails", config: `resource "test_thing" "a" {
  replace_key = "x"
  provisioner "local-exec" {
    command = "echo ${var.secret}; echo ${test_secret.src.password}; exit 3"
  }
}`, applyErr: "local-exec provisioner error"},
		{name: "import id", config: `import {
  to = test_thing.a
  id = var.secret
}
resource "test_thing" "a" {}`, wantErr: "Invalid import id argument"},
		{name: "tonumber", config: `resource "test_thing" "a" { replace_key = tonumber(var.secret) }`,
			wantErr: "Invalid function argument", also: []string{"cannot convert this sensitive string to number"}},
		{name: "tobool", config: `resource "test_thing" "a" { replace_key = tobool(var.secret) }`,
			wantErr: "Invalid function argument", also: []string{"cannot convert this sensitive string to bool"}},
		{name: "parseint", config: `resource "test_thing" "a" { replace_key = parseint(var.secret, 10) }`, wantErr: "Invalid function argument"},
		{name: "jsondecode", config: `resource "test_thing" "a" { replace_key = jsondecode("\"${var.secret}") }`, wantErr: "Error in function call"},
		{name: "base64decode", config: `resource "test_thing" "a" { replace_key = base64decode(var.secret) }`, wantErr: "Error in function call"},
		{name: "index", config: `resource "test_thing" "a" { replace_key = index(["a"], var.secret) }`, wantErr: "Error in function call"},
		{name: "file", config: `resource "test_thing" "a" { replace_key = file(var.secret) }`, wantErr: "Invalid function argument"},
		{name: "regex", config: `resource "test_thing" "a" { replace_key = regex("^nomatch$", var.secret) }`, wantErr: "Error in function call"},
		{name: "regex with a sensitive pattern", config: `resource "test_thing" "a" { replace_key = regex("(${var.secret}", "x") }`, wantErr: "Invalid function argument"},
		{name: "cidrsubnet", config: `resource "test_thing" "a" { replace_key = cidrsubnet(var.secret, 8, 1) }`, wantErr: "Error in function call",
			also: []string{"invalid CIDR address: (sensitive value)."}},
		{name: "timeadd", config: `resource "test_thing" "a" { replace_key = timeadd(var.secret, "1h") }`, wantErr: "Error in function call"},
		{name: "arithmetic on a sensitive string", config: `resource "test_thing" "a" { replace_key = var.secret + 1 }`, wantErr: "Invalid operand"},
		{name: "index into a sensitive map", config: `resource "test_thing" "a" { replace_key = var.secret_map[var.secret] }`, wantErr: "Invalid index"},
		{name: "wrong type for an attribute", config: `resource "test_thing" "a" { ref = var.secret }`, wantErr: "Incorrect attribute value type"},
		{name: "provider error quoting a sensitive name", config: `resource "test_thing" "a" { name = var.secret }
resource "test_thing" "b" { name = var.secret }`, applyErr: "is already taken by"},
		{name: "remote state path", config: `data "terraform_remote_state" "r" {
  backend = "local"
  config  = { path = "${var.secret}.tfstate" }
}`, wantErr: "Unable to find remote state"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			canary := fmt.Sprintf("CANARY%03dx", i)
			files := map[string]string{
				"main.tf": strings.ReplaceAll(sensitivePrelude+tt.config+"\n", "CANARY", canary),
				"m/main.tf": `variable "in" {
  sensitive = true
}
variable "pw" {}
output "out" {
  value     = "${var.in}-m"
  sensitive = true
}
output "pw" {
  value = var.pw
}
`,
			}
			dir := workDir(t, files)
			withTestProvider(t, providertest.New())
			steps := [][]string{
				{"plan", "-input=false", "-no-color"},
				{"apply", "-auto-approve", "-input=false", "-no-color"},
				{"plan", "-input=false", "-no-color", "-json"},
				{"show", "-no-color"},
			}
			if tt.reapply != "" {
				steps = append(steps, []string{"apply", "-auto-approve", "-input=false", "-no-color", "-var", "secret_map={k=\"" + strings.ReplaceAll(tt.reapply, "CANARY", canary) + "\"}",
					"-var", "secret=" + strings.ReplaceAll(tt.reapply, "CANARY", canary)})
			}
			for _, args := range steps {
				r := rigNoPanic(t, dir, args...)
				out := r.stdout + r.stderr
				if args[0] == "show" {
					if tt.wantErr == "" && r.code != 0 {
						t.Errorf("show: exit %d\n%s", r.code, out)
					}
				} else if tt.wantErr != "" {
					if r.code != 1 || !strings.Contains(out, tt.wantErr) {
						t.Errorf("%s: exit %d, want 1 and %q\n%s", args[0], r.code, tt.wantErr, out)
					}
				} else if args[0] == "apply" && tt.applyErr != "" {
					if r.code != 1 || !strings.Contains(out, tt.applyErr) {
						t.Errorf("apply: exit %d, want 1 and %q\n%s", r.code, tt.applyErr, out)
					}
				} else if r.code != 0 {
					t.Errorf("%s: exit %d\n%s", args[0], r.code, out)
				}
				if args[0] == "plan" && len(args) == 3 {
					for _, want := range tt.also {
						if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
							t.Errorf("plan does not say %q:\n%s", want, out)
						}
					}
				}
				leaked := strings.Contains(out, canary) || strings.Contains(out, "s3cr3t-")
				if leaked {
					t.Errorf("%s printed a sensitive value:\n%s", strings.Join(args, " "), out)
				}
			}
		})
	}
}

// rigNoPanic runs rig as rig does, failing the test (rather than the test
// binary) if the command panics.
func rigNoPanic(t *testing.T, dir string, args ...string) (r result) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked: %v\n%s", strings.Join(args, " "), p, debug.Stack())
		}
	}()
	return rig(t, dir, args...)
}
