package config

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The provider configurations a module call hands to its module are
// checked when the configuration loads, as OpenTofu checks them.
func TestModuleCallProviderChecks(t *testing.T) {
	const awsReq = "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"an empty provider block does not stop count", map[string]string{
			"main.tf":   awsReq + "provider \"aws\" {\n  region = \"x\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  count  = 1\n  providers = { aws = aws }\n}\n",
			"m/main.tf": "provider \"aws\" {}\nresource \"aws_instance\" \"a\" {}\n",
		}, []string{"warning m/main.tf:1: Redundant empty provider block"}},
		{"a configured provider block stops for_each", map[string]string{
			"main.tf":   "module \"m\" {\n  source   = \"./m\"\n  for_each = toset([\"a\"])\n}\n",
			"m/main.tf": "provider \"aws\" {\n  region = \"x\"\n}\n",
		}, []string{"error main.tf:3: Module is incompatible with count, for_each, enabled and depends_on"}},
		{"a provider version counts as configuring", map[string]string{
			"main.tf":   "module \"m\" {\n  source     = \"./m\"\n  depends_on = [terraform_data.a]\n}\nresource \"terraform_data\" \"a\" {}\n",
			"m/main.tf": "provider \"aws\" {\n  version = \"1.0\"\n}\n",
		}, []string{
			"warning m/main.tf:2: Version constraints inside provider configuration blocks are deprecated",
			"error main.tf:3: Module is incompatible with count, for_each, enabled and depends_on",
		}},
		{"below a call with count", map[string]string{
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n  count  = 2\n}\n",
			"m/main.tf": "module \"n\" {\n  source = \"../n\"\n}\n",
			"n/main.tf": "provider \"aws\" {\n  region = \"x\"\n}\n",
		}, []string{"error main.tf:3: Module is incompatible with count, for_each, enabled and depends_on"}},
		{"a configuration of the module cannot be overridden", map[string]string{
			"main.tf":   awsReq + "provider \"aws\" {\n  region = \"x\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = {\n    aws = aws\n  }\n}\n",
			"m/main.tf": awsReq + "provider \"aws\" {\n  region = \"y\"\n}\n",
		}, []string{"error main.tf:12: Cannot override provider configuration"}},
		{"a configuration alias must be passed", map[string]string{
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n}\n",
			"m/main.tf": "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.west]\n    }\n  }\n}\n",
		}, []string{"error main.tf:1: Missing required provider configuration"}},
		{"a configuration alias passed", map[string]string{
			"main.tf":   awsReq + "provider \"aws\" {\n  alias  = \"w\"\n  region = \"x\"\n}\nmodule \"m\" {\n  source    = \"./m\"\n  providers = { aws.west = aws.w }\n}\n",
			"m/main.tf": "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.west]\n    }\n  }\n}\n",
		}, nil},
		{"the provider types must match", map[string]string{
			"main.tf":   "terraform {\n  required_providers {\n    foo = { source = \"hashicorp/foo\" }\n  }\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = {\n    foo = foo\n  }\n}\n",
			"m/main.tf": "terraform {\n  required_providers {\n    foo = { source = \"example.com/vendor/foo\" }\n  }\n}\n",
		}, []string{"error main.tf:9: Provider type mismatch"}},
		{"a name the caller does not declare has no type to mismatch", map[string]string{
			"main.tf":   "terraform {\n  required_providers {\n    dummy = { source = \"my/dummy\" }\n  }\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = {\n    dummy = dumme\n  }\n}\n",
			"m/main.tf": "terraform {\n  required_providers {\n    dummy = { source = \"my/dummy\" }\n  }\n}\n",
		}, []string{"warning main.tf:9: Reference to undefined provider"}},
		{"names neither side declares", map[string]string{
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n  providers = {\n    bar = bar\n  }\n}\n",
			"m/main.tf": "resource \"bar_thing\" \"a\" {}\n",
		}, []string{
			"warning main.tf:4: Reference to undefined provider",
			"warning main.tf:4: Reference to undefined provider",
		}},
		{"the built-in provider needs no declaration", map[string]string{
			"main.tf":   "provider \"terraform\" {\n  alias = \"x\"\n}\nmodule \"m\" {\n  source    = \"./m\"\n  for_each  = toset([\"a\"])\n  providers = { terraform = terraform.x }\n}\n",
			"m/main.tf": "resource \"terraform_data\" \"a\" {}\n",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := LoadTreeFS(mapFS(tt.files), TreeOptions{})
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s %s:%d: %s", d.Severity, d.Subject.Filename, d.Subject.Start.Line, d.Summary))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
