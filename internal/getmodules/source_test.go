package getmodules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSource(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Source
		// str is want.String(); "" means the input itself.
		str string
		// err is a substring of the error; "" means no error.
		err string
	}{
		{name: "local", in: "./modules/net",
			want: Source{Kind: LocalSource, Path: "./modules/net"}},
		{name: "local parent", in: "../sub",
			want: Source{Kind: LocalSource, Path: "../sub"}},
		{name: "local cleaned", in: "./modules//net/./",
			want: Source{Kind: LocalSource, Path: "./modules/net"}, str: "./modules/net"},
		{name: "local dot-dot inside", in: "./a/../b",
			want: Source{Kind: LocalSource, Path: "./b"}, str: "./b"},
		{name: "local climbing", in: "./../../x",
			want: Source{Kind: LocalSource, Path: "../../x"}, str: "../../x"},
		{name: "local backslashes", in: `.\modules\net`,
			want: Source{Kind: LocalSource, Path: "./modules/net"}, str: "./modules/net"},
		{name: "local parent backslashes", in: `..\sub`,
			want: Source{Kind: LocalSource, Path: "../sub"}, str: "../sub"},
		{name: "local parent dir", in: "../",
			want: Source{Kind: LocalSource, Path: "./.."}, str: "./.."},
		{name: "local current dir", in: "./",
			want: Source{Kind: LocalSource, Path: "./."}, str: "./."},

		{name: "git https with ref", in: "git::https://example.com/r.git?ref=v1",
			want: Source{Kind: GitSource, Repo: "https://example.com/r.git", Query: "ref=v1", Ref: "v1"}},
		{name: "git ssh", in: "git::ssh://git@example.com/org/r.git",
			want: Source{Kind: GitSource, Repo: "ssh://git@example.com/org/r.git"}},
		{name: "git file", in: "git::file:///tmp/r.git?ref=v1",
			want: Source{Kind: GitSource, Repo: "file:///tmp/r.git", Query: "ref=v1", Ref: "v1"}},
		{name: "git subdir", in: "git::https://h/r.git//modules/x?ref=v1",
			want: Source{Kind: GitSource, Repo: "https://h/r.git", Query: "ref=v1", Ref: "v1", Subdir: "modules/x"}},
		{name: "git subdir cleaned", in: "git::file:///tmp/r.git//modules/x/",
			want: Source{Kind: GitSource, Repo: "file:///tmp/r.git", Subdir: "modules/x"},
			str:  "git::file:///tmp/r.git//modules/x"},
		{name: "git subdir of dot", in: "git::file:///tmp/r.git//.",
			want: Source{Kind: GitSource, Repo: "file:///tmp/r.git"}, str: "git::file:///tmp/r.git"},
		{name: "git depth and ref kept in written order", in: "git::file:///tmp/r.git?depth=1&ref=main",
			want: Source{Kind: GitSource, Repo: "file:///tmp/r.git", Query: "depth=1&ref=main", Ref: "main", Depth: 1}},
		{name: "scp shorthand", in: "git@example.com:org/r.git?ref=v1",
			want: Source{Kind: GitSource, Repo: "ssh://git@example.com/org/r.git", Query: "ref=v1", Ref: "v1"},
			str:  "git::ssh://git@example.com/org/r.git?ref=v1"},
		{name: "scp shorthand with subdir", in: "git@example.com:org/r.git//sub",
			want: Source{Kind: GitSource, Repo: "ssh://git@example.com/org/r.git", Subdir: "sub"},
			str:  "git::ssh://git@example.com/org/r.git//sub"},
		{name: "forced scp shorthand", in: "git::git@example.com:org/r.git",
			want: Source{Kind: GitSource, Repo: "ssh://git@example.com/org/r.git"},
			str:  "git::ssh://git@example.com/org/r.git"},

		{name: "git unknown parameter", in: "git::https://h/r.git?sshkey=abc", err: `unsupported query parameter "sshkey"`},
		{name: "git bad depth", in: "git::https://h/r.git?depth=x", err: "depth must be a positive whole number"},
		{name: "git empty ref", in: "git::https://h/r.git?ref=", err: "ref must not be empty"},
		{name: "git without scheme", in: "git::/tmp/r.git", err: "must be a URL with a scheme"},
		{name: "git unsupported scheme", in: "git::s3://bucket/r.git", err: `not "s3"`},
		{name: "git without host", in: "git::https:///r.git", err: "has no host"},
		{name: "git subdir escaping", in: "git::https://h/r.git//../x", err: "leads outside of the repository"},

		{name: "registry", in: "hashicorp/consul/aws",
			want: Source{Kind: RegistrySource, Namespace: "hashicorp", Name: "consul", System: "aws"},
			str:  "registry.terraform.io/hashicorp/consul/aws"},
		{name: "registry with host and subdir", in: "App.Terraform.io/org/net/aws//modules/x/",
			want: Source{Kind: RegistrySource, Host: "app.terraform.io", Namespace: "org", Name: "net", System: "aws", Subdir: "modules/x"},
			str:  "app.terraform.io/org/net/aws//modules/x"},
		{name: "registry with host and port", in: "127.0.0.1:8443/org/net/aws",
			want: Source{Kind: RegistrySource, Host: "127.0.0.1:8443", Namespace: "org", Name: "net", System: "aws"}},
		{name: "registry subdir escaping", in: "org/net/aws//../x", err: "leads outside of the package"},
		{name: "registry with a Unicode host", in: "exämple.com/org/net/aws",
			want: Source{Kind: RegistrySource, Host: "exämple.com", Namespace: "org", Name: "net", System: "aws"}},
		{name: "registry host with an underscore", in: "exa_mple.com/org/net/aws", err: `rig failed to determine your intended installation method for remote module package "exa_mple.com/org/net/aws"`},
		{name: "registry host with an empty label", in: "example..com/org/net/aws", err: `use "./example..com/org/net/aws" instead`},
		{name: "registry host in punycode", in: "xn--exmple-cua.com/org/net/aws", err: "failed to determine your intended installation method"},
		{name: "https archive", in: "https://example.com/net.zip",
			want: Source{Kind: HTTPSource, URL: "https://example.com/net.zip"}},
		{name: "https archive with subdir and query", in: "https://example.com/net?archive=tar.gz//modules/x",
			want: Source{Kind: HTTPSource, URL: "https://example.com/net?archive=tar.gz", Subdir: "modules/x"},
			str:  "https://example.com/net//modules/x?archive=tar.gz"},
		{name: "https subdir before query", in: "https://example.com/net//modules/x?archive=tar.gz",
			want: Source{Kind: HTTPSource, URL: "https://example.com/net?archive=tar.gz", Subdir: "modules/x"}},
		{name: "https URL ending in a slash, subdir after its query", in: "https://example.com/net/?archive=zip//modules/x",
			want: Source{Kind: HTTPSource, URL: "https://example.com/net/?archive=zip", Subdir: "modules/x"}},
		{name: "https URL ending in a slash, empty query", in: "https://example.com/net/?//modules/x",
			want: Source{Kind: HTTPSource, URL: "https://example.com/net/?", Subdir: "modules/x"}},
		{name: "https URL ending in a slash, query with slashes", in: "https://example.com/net/?//x?a=//b", err: `cannot have "//" in its query`},
		{name: "http plain", in: "http://example.com/modules/net",
			want: Source{Kind: HTTPSource, URL: "http://example.com/modules/net"}},
		{name: "https unknown archive", in: "https://example.com/net?archive=rar", err: `unsupported archive format "rar"`},
		{name: "https with user", in: "https://user:secret@example.com/net.zip", err: "credentials in the URL"},
		{name: "https subdir escaping", in: "https://example.com/net.zip//../x", err: "leads outside of the package"},
		{name: "github shorthand", in: "github.com/org/repo",
			want: Source{Kind: OtherSource}, err: `write it as a git source ("git::https://github.com/`},
		{name: "absolute path", in: "/srv/modules/net",
			want: Source{Kind: OtherSource}, err: `must begin with "./" or "../"`},
		{name: "ftp", in: "ftp://example.com/net.zip",
			want: Source{Kind: OtherSource}, err: `is a "ftp" URL`},
		{name: "s3 forced", in: "s3::https://s3.amazonaws.com/b/net.zip",
			want: Source{Kind: OtherSource}, err: `is a "s3" source`},
		{name: "bare dot", in: ".",
			want: Source{Kind: OtherSource}, err: `write a local path as "./DIR"`},
		{name: "empty", in: "", err: "must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSource(tt.in)
			if tt.err == "" && err != nil {
				t.Fatalf("ParseSource(%q): %v", tt.in, err)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseSource(%q) error = %v, want it to contain %q", tt.in, err, tt.err)
				}
				if tt.want.Kind == OtherSource {
					if !strings.Contains(err.Error(), `rig installs modules from local paths`) {
						t.Errorf("error %q does not say which sources rig supports", err)
					}
				}
			}
			if tt.want.Kind != InvalidSource {
				tt.want.Raw = tt.in
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSource(%q) (-want +got):\n%s", tt.in, diff)
			}
			if tt.err != "" {
				return
			}
			wantStr := tt.str
			if wantStr == "" {
				wantStr = tt.in
			}
			if s := got.String(); s != wantStr {
				t.Errorf("String() = %q, want %q", s, wantStr)
			}
			// The normalized form parses to the same address.
			again, err := ParseSource(got.String())
			if err != nil {
				t.Fatalf("ParseSource(String()): %v", err)
			}
			again.Raw = got.Raw
			if got.Kind == RegistrySource && got.Host == "" {
				got.Host = DefaultRegistryHost // the normalized form names the host
			}
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("reparsed (-first +again):\n%s", diff)
			}
		})
	}
}

func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"./a", `..\b`, "git::https://h/r.git//x?ref=v1&depth=2", "git@h:o/r", "a/b/c", "h.io/a/b/c//d", "s3::x",
		"127.0.0.1:8443/a/b/c", "https://h/p?archive=zip//x", "https://h/p//x/?archive=tgz", "http://h/a.zip"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src, err := ParseSource(s)
		if err != nil {
			return
		}
		str := src.String()
		if strings.Contains(str, `\`) && src.Kind == LocalSource {
			t.Fatalf("%q: local source written with a backslash: %q", s, str)
		}
		again, err := ParseSource(str)
		if err != nil {
			t.Fatalf("%q normalizes to %q, which does not parse: %v", s, str, err)
		}
		if again.String() != str {
			t.Fatalf("%q normalizes to %q, then to %q", s, str, again.String())
		}
	})
}

func TestSourceMatches(t *testing.T) {
	tests := []struct {
		name, source, recorded string
		want                   bool
	}{
		{"registry under Terraform's host", "hashicorp/consul/aws", "registry.terraform.io/hashicorp/consul/aws", true},
		{"registry under OpenTofu's host", "hashicorp/consul/aws", "registry.opentofu.org/hashicorp/consul/aws", true},
		{"registry explicit default host, other default recorded", "registry.terraform.io/hashicorp/consul/aws", "registry.opentofu.org/hashicorp/consul/aws", true},
		{"registry recorded without a host, as OpenTofu and Terraform record it", "hashicorp/consul/aws", "hashicorp/consul/aws", true},
		{"registry recorded without a host, host resolved", "registry.opentofu.org/hashicorp/consul/aws", "hashicorp/consul/aws", true},
		{"registry recorded without a host, another package", "hashicorp/consul/aws", "hashicorp/vault/aws", false},
		{"registry recorded without a host, private host", "example.com/hashicorp/consul/aws", "hashicorp/consul/aws", false},
		{"registry under another host", "hashicorp/consul/aws", "example.com/hashicorp/consul/aws", false},
		{"registry with another subdir", "hashicorp/consul/aws//a", "registry.terraform.io/hashicorp/consul/aws//b", false},
		{"private registry is not a default one", "example.com/hashicorp/consul/aws", "registry.terraform.io/hashicorp/consul/aws", false},
		{"git", "git::https://h/r.git?ref=v1", "git::https://h/r.git?ref=v1", true},
		{"git other ref", "git::https://h/r.git?ref=v1", "git::https://h/r.git?ref=v2", false},
		{"http subdir normalized", "https://h/m?archive=zip//x", "https://h/m//x?archive=zip", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := ParseSource(tt.source)
			if err != nil {
				t.Fatal(err)
			}
			if got := src.Matches(tt.recorded); got != tt.want {
				t.Errorf("ParseSource(%q).Matches(%q) = %v, want %v", tt.source, tt.recorded, got, tt.want)
			}
		})
	}
}
