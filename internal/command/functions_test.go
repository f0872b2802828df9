package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

const builtinFunctionsConfig = `
terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}

locals {
  settings = { region = "eu-west-1", zones = ["a", "b"], size = 3 }
}

resource "terraform_data" "tfvars" {
  input = provider::terraform::encode_tfvars(local.settings)
}

# The argument is unknown until terraform_data.tfvars is created.
resource "terraform_data" "expr" {
  input = provider::terraform::encode_expr(provider::terraform::decode_tfvars(terraform_data.tfvars.output).zones)
}

output "tfvars" {
  value = terraform_data.tfvars.output
}

output "size" {
  value = provider::terraform::decode_tfvars("size = 3").size
}

output "expr" {
  value = terraform_data.expr.output
}
`

// TestBuiltinProviderFunctions uses the built-in provider's functions:
// known arguments are evaluated in the plan, unknown ones give unknown
// results until apply, and the values are OpenTofu's.
func TestBuiltinProviderFunctions(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": builtinFunctionsConfig})
	if r := rig(t, dir, "validate", "-no-color"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s", r.code, r.stderr)
	}
	r := rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "functions/builtin-plan", r.stdout)
	if r := rig(t, dir, "apply", "-input=false", "-no-color", "-auto-approve"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "output", "-json")
	var outs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &outs); err != nil {
		t.Fatalf("output -json: %v\n%s", err, r.stdout)
	}
	got := map[string]any{}
	for k, v := range outs {
		got[k] = v.Value
	}
	want := map[string]any{
		"tfvars": "region = \"eu-west-1\"\nsize   = 3\nzones  = [\"a\", \"b\"]\n",
		"size":   3.0,
		"expr":   `["a", "b"]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan after apply: exit %d\n%s", r.code, r.stdout)
	}
}

const testFunctionsConfig = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

provider "test" {
  alias = "other"
}

resource "test_thing" "a" {
  value = provider::test::upper("abc")
}

resource "test_thing" "b" {
  # Unknown in the plan: the function is not called until apply.
  value = provider::test::join("-", test_thing.a.id, provider::test::other::upper("x"))
}

output "b" {
  value = test_thing.b.value
}
`

// TestTestProviderFunctions calls the recording provider's functions,
// variadic and through an aliased configuration's name, and checks that
// the provider is never called with an unknown argument.
func TestTestProviderFunctions(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{"main.tf": testFunctionsConfig})
	r := rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, `+ value  = "ABC"`) || !strings.Contains(r.stdout, "+ value  = (known after apply)") {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "apply", "-input=false", "-no-color", "-auto-approve"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "output", "-raw", "b"); r.stdout != "id-1-X" {
		t.Errorf("output b = %q, want id-1-X", r.stdout)
	}
	joins := 0
	for _, c := range live.FunctionCalls() {
		for _, a := range c.Args {
			if !a.IsWhollyKnown() {
				t.Errorf("%s called with an unknown argument: %#v", c.Name, c.Args)
			}
		}
		if c.Name == "join" {
			joins++
		}
	}
	if joins == 0 {
		t.Errorf("join was never called: %v", live.FunctionCalls())
	}
}

// TestProviderFunctionErrors checks the diagnostics of calls that cannot
// be made, in validate and plan, at the call.
func TestProviderFunctionErrors(t *testing.T) {
	const declared = `
terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
    test      = { source = "hashicorp/test" }
  }
}
`
	tests := []struct {
		name, config, want string
		golden             string
	}{
		{"provider not declared", `resource "terraform_data" "x" { input = provider::terraform::encode_expr(1) }`,
			`Provider "terraform" does not exist within the required_providers of this module`, "functions/not-declared"},
		{"no such function", declared + `resource "terraform_data" "x" { input = provider::terraform::nope(1) }`,
			`Function "nope" was not registered by provider "provider[\"terraform.io/builtin/terraform\"]"`, ""},
		{"not the provider namespace", declared + `resource "terraform_data" "x" { input = terraform::encode_expr(1) }`,
			`Function "terraform::encode_expr" does not exist within a valid namespace`, ""},
		{"namespace left out", declared + `resource "terraform_data" "x" { input = encode_expr(1) }`,
			`There is no function named "encode_expr". Did you mean "provider::terraform::encode_expr"?`, ""},
		{"function fails", declared + `resource "terraform_data" "x" { input = provider::terraform::decode_tfvars("x") }`,
			`Call to function "provider::terraform::decode_tfvars" failed: failed to decode tfvars content`, ""},
		{"argument rejected", declared + `resource "terraform_data" "x" { input = provider::test::upper("") }`,
			`Invalid value for "s" parameter: the string must not be empty.`, "functions/argument-rejected"},
		{"wrong argument type", declared + `resource "terraform_data" "x" { input = provider::test::upper([]) }`,
			`Invalid value for "s" parameter: string required, but have tuple.`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withTestProvider(t, providertest.New())
			dir := workDir(t, map[string]string{"main.tf": tt.config})
			for _, cmd := range []string{"validate", "plan"} {
				r := rig(t, dir, cmd, "-no-color")
				if r.code != 1 || !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), tt.want) || !strings.Contains(r.stderr, "on main.tf line") {
					t.Errorf("%s: exit %d, want 1 and %q at the call\n%s", cmd, r.code, tt.want, r.stderr)
				}
				if tt.golden != "" && cmd == "plan" {
					golden(t, tt.golden, r.stderr)
				}
			}
		})
	}
}
