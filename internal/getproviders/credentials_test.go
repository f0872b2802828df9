package getproviders

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// TestRegistryCredentials: a host's token goes to that host's registry
// API (even at the address a host block gives it), never to another
// registry, and to a download only on the token's own host.
func TestRegistryCredentials(t *testing.T) {
	a := registrytest.New(t, nil, randomReleases()...)
	b := registrytest.New(t, nil, registrytest.Release{Namespace: "example", Type: "other", Version: "1.0.0", Platforms: testPlatforms})
	c := registrytest.New(t, nil, registrytest.Release{Namespace: "example", Type: "aliased", Version: "1.0.0", Platforms: testPlatforms})
	client := newTestClient(a, nil)
	client.Services = map[string]map[string]string{"registry.example.com": {"providers.v1": c.Server.URL + "/v1/providers/"}}
	client.Credentials = NewCredentials(map[string]string{a.Host: "token-a"}, []string{"TF_TOKEN_registry_example_com=token-c"})
	reqs := []Requirement{
		{Provider: registryProvider(a, "random")},
		{Provider: registryProvider(b, "other")},
		{Provider: addrs.Provider{Hostname: "registry.example.com", Namespace: "example", Type: "aliased"}},
	}
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: client}}}, reqs, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	check := func(name string, reg *registrytest.Registry, want func(path string) string) {
		t.Helper()
		if len(reg.Requests()) == 0 {
			t.Errorf("%s: no requests", name)
		}
		for _, r := range reg.Requests() {
			if w := want(r.Path); r.Authorization != w {
				t.Errorf("%s: %s had Authorization %q, want %q", name, r.Path, r.Authorization, w)
			}
		}
	}
	check("registry a", a, func(string) string { return "Bearer token-a" })
	check("registry b", b, func(string) string { return "" })
	check("registry.example.com at c", c, func(path string) string {
		if strings.HasPrefix(path, "/v1/providers/") {
			return "Bearer token-c"
		}
		return "" // downloads from c's own host, which has no credentials
	})
}

func TestTokenEnvHost(t *testing.T) {
	tests := map[string]string{
		"TF_TOKEN_app_terraform_io":     "app.terraform.io",
		"TF_TOKEN_registry__corp_co_uk": "registry-corp.co.uk",
		"TF_TOKEN_A_B":                  "a.b",
	}
	for name, want := range tests {
		if got, ok := tokenEnvHost(name); !ok || got != want {
			t.Errorf("tokenEnvHost(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	creds := NewCredentials(map[string]string{"App.Terraform.io": "from-file", "other.io": "file-only"}, []string{"TF_TOKEN_app_terraform_io=from-env", "PATH=/bin"})
	if got := creds.Token("app.terraform.io"); got != "from-env" {
		t.Errorf("an environment variable does not win over a block: %q", got)
	}
	if got := creds.Token("OTHER.io"); got != "file-only" {
		t.Errorf("Token(OTHER.io) = %q", got)
	}
	if got := creds.Token("nobody.io"); got != "" {
		t.Errorf("Token(nobody.io) = %q", got)
	}
}

// TestLoadCredentials reads tokens from the three places Terraform does:
// TF_TOKEN_ variables win over the CLI configuration's credentials blocks,
// which win over credentials.tfrc.json; hosts compare without case or the
// https port, and no formatting of the credentials shows a token.
func TestLoadCredentials(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeTestFile(t, filepath.Join(home, ".terraform.d", "credentials.tfrc.json"),
		`{"credentials":{"login.example.com":{"token":"from-login"},"both.example.com":{"token":"login-loses"}}}`)
	cfg := filepath.Join(home, "cli.tfrc")
	writeTestFile(t, cfg, `
provider_installation {
  direct {}
}
credentials "Registry.Example.com" {
  token = "from-file"
}
credentials "both.example.com" {
  token = "file-wins-over-login"
}
credentials "127.0.0.1:8443" {
  token = "with-port"
}
credentials "env.example.com" {
  token = "env-wins"
}
`)
	t.Setenv("TF_CLI_CONFIG_FILE", cfg)
	creds, ds := LoadCredentials([]string{
		"TF_TOKEN_env_example_com=from-env",
		"TF_TOKEN_my__registry_example_com=dashed",
		"TF_TOKEN_empty_example_com=",
		"PATH=/bin",
	})
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds.Err())
	}
	want := map[string]string{
		"login.example.com":       "from-login",
		"both.example.com":        "file-wins-over-login",
		"registry.example.com":    "from-file",
		"127.0.0.1:8443":          "with-port",
		"env.example.com":         "from-env",
		"my-registry.example.com": "dashed",
	}
	got := map[string]string{}
	for host := range want {
		got[host] = creds.Token(host)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	if tok := creds.Token("Registry.Example.com:443"); tok != "from-file" {
		t.Errorf("the token of registry.example.com at its https port = %q, want the host's", tok)
	}
	if tok := creds.Token("unknown.example.com"); tok != "" {
		t.Errorf("a host without credentials has the token %q", tok)
	}
	for _, s := range []string{creds.String(), fmt.Sprintf("%v %+v %#v", creds, creds, creds)} {
		for _, tok := range want {
			if strings.Contains(s, tok) {
				t.Errorf("%q shows the token %q", s, tok)
			}
		}
	}
	if got := creds.String(); got != "credentials for 6 hosts" {
		t.Errorf("String() = %q", got)
	}
}

// TestLoadCredentialsInvalidFile: a credentials file that is not JSON is
// a warning naming the file; its hosts just have no token.
func TestLoadCredentialsInvalidFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TF_CLI_CONFIG_FILE", "")
	p := filepath.Join(home, ".terraform.d", "credentials.tfrc.json")
	writeTestFile(t, p, `{"credentials": {"h.example.com": {"token": "s3cr3t"`)
	creds, ds := LoadCredentials(nil)
	if len(ds) != 1 || ds.HasErrors() || !strings.Contains(ds[0].Detail, p) || strings.Contains(ds[0].Detail, "s3cr3t") {
		t.Fatalf("diagnostics %+v, want one warning naming the file and not the token", ds)
	}
	if tok := creds.Token("h.example.com"); tok != "" {
		t.Errorf("token %q from an invalid file", tok)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
