package command

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// A deprecated module output warns where its caller uses it ("Value
// derived from a deprecated source", as OpenTofu words it), at the
// expression or the resource argument, in the plan and the -json stream;
// -deprecation=module:local leaves out those of remote modules and
// -deprecation=module:none all of them; the apply does not repeat them.
func TestDeprecatedOutputs(t *testing.T) {
	module := `output "old" {
  value      = "o"
  deprecated = "Use new instead."
}
output "new" {
  value = "n"
}
`
	dir := workDir(t, map[string]string{
		"main.tf": `module "own" {
  source = "./own"
}
module "ext" {
  source  = "acme/ext/aws"
  version = "1.0.0"
}
resource "terraform_data" "a" {
  input = module.own.old
}
output "fine" {
  value = module.own.new
}
output "remote" {
  value = module.ext.old
}
`,
		"own/main.tf":                    module,
		".terraform/modules/ext/main.tf": module,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"ext","Source":"registry.terraform.io/acme/ext/aws","Version":"1.0.0","Dir":".terraform/modules/ext"},` +
			`{"Key":"own","Source":"./own","Dir":"own"}]}`,
	})
	const summary = "Warning: Value derived from a deprecated source"
	for _, tc := range []struct {
		level         string
		local, remote bool
	}{
		{"", true, true},
		{"-deprecation=module:local", true, false},
		{"-deprecation=module:none", false, false},
	} {
		args := []string{"plan", "-no-color"}
		if tc.level != "" {
			args = append(args, tc.level)
		}
		r := mustRig(t, dir, args...)
		local := strings.Contains(r.stdout, "9:   input = module.own.old") && strings.Contains(oneLine(r.stdout), "This value is derived from module.own.old, which is deprecated with the following message: Use new instead.")
		remote := strings.Contains(r.stdout, "15:   value = module.ext.old")
		if local != tc.local || remote != tc.remote {
			t.Errorf("%q: warned about the local module %v (want %v), the remote one %v (want %v):\n%s", tc.level, local, tc.local, remote, tc.remote, r.stderr)
		}
		if strings.Contains(r.stdout, "module.own.new") {
			t.Errorf("%q: warned about an output that is not deprecated:\n%s", tc.level, r.stderr)
		}
	}
	stream := mustRig(t, dir, "plan", "-json")
	if n := strings.Count(stream.stdout, `"summary":"Value derived from a deprecated source"`); n != 2 {
		t.Errorf("-json stream has %d deprecation diagnostics, want 2:\n%s", n, stream.stdout)
	}
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if n := strings.Count(r.stdout, summary); n != 2 {
		t.Errorf("apply shows %d deprecation warnings, want the plan's 2:\n%s", n, r.stderr)
	}
}

// An output's type (Terraform 1.15) converts its value, which the state
// records with that type; a value that does not convert is an error.
// convert() (Terraform 1.15, OpenTofu 1.13) converts inline.
func TestOutputTypeAndConvert(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `output "ports" {
  type  = list(number)
  value = ["80", 443]
}
output "settings" {
  value = convert({ name = "web" }, object({ name = string, size = optional(number, 2) }))
}
`})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	r := mustRig(t, dir, "output", "-json")
	var outs map[string]struct {
		Value json.RawMessage `json:"value"`
		Type  json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &outs); err != nil {
		t.Fatalf("output -json: %v\n%s", err, r.stdout)
	}
	if got := compactJSON(outs["ports"].Value) + " " + compactJSON(outs["ports"].Type); got != `[80,443] ["list","number"]` {
		t.Errorf("ports = %s", got)
	}
	if got := compactJSON(outs["settings"].Value); got != `{"name":"web","size":2}` {
		t.Errorf("settings = %s", got)
	}

	writeFile(t, dir, "main.tf", `output "ports" {
  type  = list(number)
  value = ["http"]
}
`)
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(oneLine(r.stderr), "Error: Invalid output value") ||
		!strings.Contains(oneLine(r.stderr), "The value expression does not match this output value's type constraint: [0]: a number is required.") {
		t.Errorf("plan: exit %d\n%s", r.code, r.stderr)
	}
}

// A language block (OpenTofu 1.12) declares which OpenTofu versions a
// module works with; rig checks it against the OpenTofu language it
// implements, and a terraform block's language and experiments are
// ignored, as OpenTofu 1.12 ignores them.
func TestLanguageBlock(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `terraform {
  experiments = [some_terraform_experiment]
}
language {
  compatible_with {
    opentofu  = ">= 1.12.0"
    terraform = ">= 1.9"
  }
}
resource "terraform_data" "a" {}
`})
	mustRig(t, dir, "validate", "-no-color")
	writeFile(t, dir, "main.tf", `language {
  compatible_with {
    opentofu = ">= 2.0.0"
  }
}
`)
	r := rig(t, dir, "validate", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Incompatible module") {
		t.Errorf("validate of an incompatible module: exit %d\n%s", r.code, r.stderr)
	}
}

// legacyProvider is the test provider with test_thing's name attribute
// deprecated, as a provider declares it in its schema (with a message,
// protocol 5.10/6.10), and warning where a configuration sets it, as
// providers' own validation does.
type legacyProvider struct{ *providertest.Provider }

func (p legacyProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	s, ds := p.Provider.GetProviderSchema(ctx)
	thing := s.ResourceTypes["test_thing"]
	attrs := maps.Clone(thing.Block.Attributes)
	name := *attrs["name"]
	name.Deprecated, name.DeprecationMessage = true, "Use key instead."
	attrs["name"] = &name
	blk := *thing.Block
	blk.Attributes = attrs
	thing.Block = &blk
	s.ResourceTypes = maps.Clone(s.ResourceTypes)
	s.ResourceTypes["test_thing"] = thing
	return s, ds
}

func (p legacyProvider) ValidateResourceConfig(ctx context.Context, typeName string, cfg cty.Value) diag.Diagnostics {
	ds := p.Provider.ValidateResourceConfig(ctx, typeName, cfg)
	if cfg.IsKnown() && !cfg.IsNull() && !cfg.GetAttr("name").IsNull() {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Argument is deprecated", Detail: "Use key instead.",
			AttributePath: cty.GetAttrPath("name")})
	}
	return ds
}

// A provider's deprecated attribute warns where an expression uses it
// (OpenTofu 1.12), naming it with the provider's message; where the
// configuration sets it, the provider's own warning points at the line.
func TestProviderDeprecatedAttributes(t *testing.T) {
	withTestProvider(t, legacyProvider{providertest.New()})
	dir := workDir(t, map[string]string{"main.tf": `resource "test_thing" "a" {
  key  = "a"
  name = "n"
}
output "name" {
  value = test_thing.a.name
}
output "key" {
  value = test_thing.a.key
}
`})
	r := mustRig(t, dir, "plan", "-no-color")
	got := oneLine(r.stdout)
	checkContains(t, "plan", got,
		`Warning: Value derived from a deprecated source on main.tf line 6, in output "name": 6: value = test_thing.a.name This value is derived from test_thing.a.name, which is deprecated with the following message: Use key instead.`,
		`Warning: Argument is deprecated with test_thing.a, on main.tf line 3, in resource "test_thing" "a": 3: name = "n" Use key instead.`,
	)
	if strings.Contains(r.stdout, "test_thing.a.key") {
		t.Errorf("warned about an attribute that is not deprecated:\n%s", r.stderr)
	}
	if r := mustRig(t, dir, "plan", "-no-color", "-deprecation=module:none"); strings.Contains(r.stdout, "Value derived from a deprecated source") {
		t.Errorf("-deprecation=module:none still warns:\n%s", r.stderr)
	}
}

// The random plugin declares random_string's number deprecated, with a
// message (protocol 5.10's deprecation_message): rig reads the message
// from the plugin and warns where the configuration uses the attribute,
// as OpenTofu 1.12 does, besides the plugin's own warning where it is set.
func TestRealProviderDeprecatedAttribute(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
resource "random_string" "s" {
  length = 8
  number = true
}
output "n" {
  value = random_string.s.number
}
`})
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	r := runOK(t, dir, "plan", "-input=false")
	got := oneLine(r.stdout)
	checkContains(t, "plan", got,
		"Warning: Attribute Deprecated with random_string.s, on main.tf line 8",
		"Warning: Value derived from a deprecated source on main.tf line 11, in output \"n\": 11: value = random_string.s.number This value is derived from random_string.s.number, which is deprecated with the following message: **NOTE**: This is deprecated, use `numeric` instead.",
	)
}
