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
			want: Source{Kind: RegistrySource}, err: "is a module registry address, which rig does not support"},
		{name: "registry with host and subdir", in: "app.terraform.io/org/net/aws//modules/x",
			want: Source{Kind: RegistrySource}, err: "module registry address"},
		{name: "github shorthand", in: "github.com/org/repo",
			want: Source{Kind: OtherSource}, err: `write it as a git source ("git::https://github.com/`},
		{name: "absolute path", in: "/srv/modules/net",
			want: Source{Kind: OtherSource}, err: `must begin with "./" or "../"`},
		{name: "http", in: "https://example.com/net.zip",
			want: Source{Kind: OtherSource}, err: `is a "https" URL`},
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
				if tt.want.Kind == RegistrySource || tt.want.Kind == OtherSource {
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
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("reparsed (-first +again):\n%s", diff)
			}
		})
	}
}

func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"./a", `..\b`, "git::https://h/r.git//x?ref=v1&depth=2", "git@h:o/r", "a/b/c", "h.io/a/b/c//d", "s3::x"} {
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
