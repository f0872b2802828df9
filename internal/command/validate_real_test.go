package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

const realValidateProviders = `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
    local  = { source = "hashicorp/local" }
    tls    = { source = "hashicorp/tls" }
    time   = { source = "hashicorp/time" }
  }
}
`

// TestRealProvidersValidate runs `rig validate` on configurations that
// only the real providers' own validators refuse (value ranges,
// conflicting arguments, allowed values) and on one they accept. The
// expected diagnostics are those OpenTofu 1.12 and Terraform 1.11 print
// for the same configurations: summary, resource, line and detail.
func TestRealProvidersValidate(t *testing.T) {
	mirror := realMirror(t, "random", "local", "tls", "time")
	dir := workDir(t, map[string]string{"main.tf": realValidateProviders})
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	tests := []struct {
		name   string
		config string
		// want are the fragments of the output, in order; none for a
		// valid configuration.
		want []string
		// never may not appear in the output.
		never string
	}{{
		name:   "value below the minimum",
		config: "resource \"random_password\" \"p\" {\n  length = local.n\n}\nlocals {\n  n = 0\n}\n",
		want: []string{`Error: Invalid Attribute Value with random_password.p, on main.tf line 11, in resource "random_password" "p": 11: length = local.n
Attribute length value must be at least 1, got: 0`},
	}, {
		name:   "exactly one of",
		config: "resource \"local_file\" \"f\" {\n  filename = \"out.txt\"\n  content  = \"hello\"\n  source   = \"in.txt\"\n}\n",
		want: []string{
			`Error: Invalid Attribute Combination with local_file.f, on main.tf line 10, in resource "local_file" "f": 10: resource "local_file" "f" {
2 attributes specified when one (and only one) of [content,content_base64,source] is required`,
			`Error: Invalid Attribute Combination with local_file.f, on main.tf line 10, in resource "local_file" "f": 10: resource "local_file" "f" {
2 attributes specified when one (and only one) of [content,sensitive_content,source] is required`,
			`Error: Invalid Attribute Combination with local_file.f, on main.tf line 12, in resource "local_file" "f": 12: content = "hello"`,
			`Error: Invalid Attribute Combination with local_file.f, on main.tf line 13, in resource "local_file" "f": 13: source = "in.txt"`,
		},
	}, {
		name:   "value not allowed, data source conflict",
		config: "resource \"tls_private_key\" \"k\" {\n  algorithm = \"FOO\"\n}\ndata \"tls_public_key\" \"pk\" {\n  private_key_pem     = \"x\"\n  private_key_openssh = \"y\"\n}\n",
		want: []string{
			`Error: Invalid Attribute Value Match with tls_private_key.k, on main.tf line 11, in resource "tls_private_key" "k": 11: algorithm = "FOO"
Attribute algorithm value must be one of: ["RSA" "ECDSA" "ED25519"], got: "FOO"`,
			`Error: Invalid Attribute Combination with data.tls_public_key.pk, on main.tf line 14, in data "tls_public_key" "pk": 14: private_key_pem = "x"`,
			`Error: Invalid Attribute Combination with data.tls_public_key.pk, on main.tf line 15, in data "tls_public_key" "pk": 15: private_key_openssh = "y"`,
		},
	}, {
		name:   "sensitive value never shown",
		config: "resource \"tls_private_key\" \"k\" {\n  algorithm = sensitive(\"BAR\")\n}\n",
		want: []string{`Error: Invalid Attribute Value Match with tls_private_key.k, on main.tf line 11, in resource "tls_private_key" "k": 11: algorithm = sensitive("BAR")
Attribute algorithm value must be one of: ["RSA" "ECDSA" "ED25519"], got: (sensitive value)`},
		never: `got: "BAR"`,
	}, {
		name:   "provider configuration, ephemeral resource",
		config: "provider \"tls\" {\n  proxy {\n    url      = \"http://proxy.example:3128\"\n    from_env = true\n  }\n}\nephemeral \"random_password\" \"e\" {\n  length = 0\n}\n",
		want: []string{
			`Error: Invalid Attribute Combination with provider["registry.terraform.io/hashicorp/tls"], on main.tf line 12, in provider "tls": 12: url = "http://proxy.example:3128"`,
			`Error: Invalid Attribute Combination with provider["registry.terraform.io/hashicorp/tls"], on main.tf line 13, in provider "tls": 13: from_env = true`,
			`Error: Invalid Attribute Value with ephemeral.random_password.e, on main.tf line 17, in ephemeral "random_password" "e": 17: length = 0`,
		},
	}, {
		name: "valid",
		config: `variable "len" {
  type = number
}
resource "random_password" "p" {
  count  = 2
  length = var.len
}
resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = random_password.p[0].result
}
resource "tls_private_key" "k" {
  algorithm = "ED25519"
}
data "tls_public_key" "pk" {
  private_key_pem = tls_private_key.k.private_key_pem
}
resource "time_sleep" "w" {
  for_each        = toset(["1s"])
  create_duration = each.key
}
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeFile(t, dir, "main.tf", realValidateProviders+tt.config)
			r := rig(t, dir, "validate", "-no-color")
			out := r.stdout + r.stderr
			if len(tt.want) == 0 {
				if r.code != 0 || !strings.Contains(r.stdout, "Success! The configuration is valid.") {
					t.Fatalf("validate: exit %d, want success\n%s", r.code, out)
				}
				return
			}
			if r.code != 1 {
				t.Errorf("validate: exit %d, want 1\n%s", r.code, out)
			}
			rest := out
			for _, want := range tt.want {
				i := strings.Index(strings.Join(strings.Fields(rest), " "), strings.Join(strings.Fields(want), " "))
				if i < 0 {
					t.Fatalf("validate output lacks, in order:\n%s\n\noutput:\n%s", want, out)
				}
				rest = strings.Join(strings.Fields(rest), " ")[i+1:]
			}
			if n := strings.Count(out, "\nError: "); n != len(tt.want) {
				t.Errorf("validate printed %d errors, want %d:\n%s", n, len(tt.want), out)
			}
			if tt.never != "" && commandtest.ContainsText(out, tt.never) {
				t.Errorf("validate printed %q:\n%s", tt.never, out)
			}

			// -json carries the same diagnostics, with the resource's address.
			r = rig(t, dir, "validate", "-json")
			var doc struct {
				Valid       bool `json:"valid"`
				ErrorCount  int  `json:"error_count"`
				Diagnostics []struct {
					Severity, Summary, Address string
				} `json:"diagnostics"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("validate -json: %v\n%s", err, r.stdout)
			}
			if doc.Valid || doc.ErrorCount != len(tt.want) || r.code != 1 {
				t.Errorf("validate -json: exit %d, valid %v, %d errors; want exit 1, invalid, %d errors", r.code, doc.Valid, doc.ErrorCount, len(tt.want))
			}
			for _, d := range doc.Diagnostics {
				if d.Severity == "error" && (d.Address == "" || !commandtest.ContainsText(out, "with "+d.Address+",")) {
					t.Errorf("validate -json: %s names %q, which the text does not", d.Summary, d.Address)
				}
			}
		})
	}
}
