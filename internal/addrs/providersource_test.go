package addrs

import (
	"errors"
	"strings"
	"testing"
)

func TestParseProviderSource(t *testing.T) {
	tests := []struct {
		src     string
		want    Provider
		summary string // the error's, when invalid
		detail  string // a part of the error's detail
	}{
		{src: "aws", want: Provider{"registry.terraform.io", "hashicorp", "aws"}},
		{src: "HashiCorp/AWS", want: Provider{"registry.terraform.io", "hashicorp", "aws"}},
		{src: "example.com/acme/bar", want: Provider{"example.com", "acme", "bar"}},
		{src: "Example.COM:443/acme/bar", want: Provider{"example.com", "acme", "bar"}},
		{src: "example.com:8443/acme/bar", want: Provider{"example.com:8443", "acme", "bar"}},
		{src: "exämple.com/acme/bar", want: Provider{"xn--exmple-cua.com", "acme", "bar"}},
		{src: "google-beta", want: Provider{"registry.terraform.io", "hashicorp", "google-beta"}},
		// A bare type is not checked for the prefixes.
		{src: "terraform-provider-aws", want: Provider{"registry.terraform.io", "hashicorp", "terraform-provider-aws"}},

		{src: "hashicorp/terraform-provider-aws", summary: "Invalid provider type",
			detail: `Provider source "hashicorp/terraform-provider-aws" has a type with the prefix "terraform-provider-", which isn't valid.` +
				` Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.` +
				"\n\n" + `Did you mean "hashicorp/aws"?`},
		{src: "example.com/acme/terraform-provider-bar", summary: "Invalid provider type", detail: `Did you mean "example.com/acme/bar"?`},
		{src: "hashicorp/opentofu-provider-aws", summary: "Invalid provider type", detail: `sometimes used in the names of version control repositories for OpenTofu providers`},
		{src: "hashicorp/terraform-aws", summary: "Invalid provider type",
			detail: `Provider source "registry.terraform.io/hashicorp/terraform-aws" has a type with the prefix "terraform-", which isn't allowed because it would be redundant to name a Terraform provider with that prefix.`},
		{src: "hashicorp/opentofu-aws", summary: "Invalid provider type", detail: `redundant to name an OpenTofu provider with that prefix`},
		{src: "hashicorp/aws.x", summary: "Invalid provider type", detail: `Invalid provider type "aws.x" in source "hashicorp/aws.x": dots are not allowed.`},
		{src: "hashicorp/a--ws", summary: "Invalid provider type", detail: "cannot use multiple consecutive dashes"},
		{src: "hashicorp/-aws", summary: "Invalid provider type", detail: "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"},
		{src: "hash_corp/aws", summary: "Invalid provider namespace", detail: `Invalid provider namespace "hash_corp" in source "hash_corp/aws": must contain only letters`},
		{src: "example.com/-/aws", summary: "Invalid provider namespace", detail: `The legacy provider namespace "-" can be used only with hostname registry.terraform.io or registry.opentofu.org.`},
		{src: "example..com/acme/bar", summary: "Invalid provider source hostname", detail: "hostname contains empty label (two consecutive periods)"},
		{src: "exa_mple.com/acme/bar", summary: "Invalid provider source hostname", detail: `Invalid provider source hostname "exa_mple.com" in source "exa_mple.com/acme/bar": idna: disallowed rune U+005F.`},
		{src: "my host.com/acme/bar", summary: "Invalid provider source hostname", detail: "disallowed rune U+0020"},
		{src: "xn--exmple-cua.com/acme/bar", summary: "Invalid provider source hostname", detail: `hostname label "xn--exmple-cua" specified in punycode format; service hostnames must be given in unicode`},
		{src: "example.com:99999/acme/bar", summary: "Invalid provider source hostname", detail: "port number is greater than 65535"},
		{src: "example.com:x/acme/bar", summary: "Invalid provider source hostname", detail: "port portion contains non-digit characters"},
		{src: "https:/acme/bar", summary: "Invalid provider source hostname", detail: "need just a hostname and optional port number, not a full URL"},
		{src: "https://example.com/acme/bar", summary: "Invalid provider source string", detail: `The "source" attribute must be in the format "[hostname/][namespace/]name"`},
		{src: "a.com/b/c/d", summary: "Invalid provider source string"},
		{src: "", summary: "Invalid provider source string"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := ParseProviderSource(tt.src)
			if tt.summary == "" {
				if err != nil || got != tt.want {
					t.Fatalf("got %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			var pe *ProviderSourceError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, %v; want a ProviderSourceError", got, err)
			}
			if pe.Summary != tt.summary || !strings.Contains(pe.Detail, tt.detail) {
				t.Errorf("got %q: %q\nwant %q with %q", pe.Summary, pe.Detail, tt.summary, tt.detail)
			}
		})
	}
}
