package getproviders

import (
	"strings"
	"testing"

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
