package getmodules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadCredentials(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeFiles(t, home, map[string]string{
		".terraform.d/credentials.tfrc.json": `{"credentials":{"login.example.com":{"token":"from-login"},"both.example.com":{"token":"login-loses"}}}`,
	})
	cfg := filepath.Join(home, "cli.tfrc")
	writeFiles(t, home, map[string]string{"cli.tfrc": `
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
`})
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
	if diff := cmp.Diff(want, creds.tokens); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
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

func TestLoadCredentialsInvalidFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeFiles(t, home, map[string]string{"cli.tfrc": "credentials \"h.example.com\" {\n  token = 42\n}\n"})
	t.Setenv("TF_CLI_CONFIG_FILE", filepath.Join(home, "cli.tfrc"))
	_, ds := LoadCredentials(nil)
	if len(ds) != 1 || ds.HasErrors() || !strings.Contains(ds[0].Detail, "line 2: the token of h.example.com must be a string") {
		t.Fatalf("diagnostics %+v, want one warning about line 2", ds)
	}
}

// TestTokenSentOnlyToItsHost: a registry's token goes with every request to
// the registry, never to the host serving the package (even through a
// redirection from the registry to the same address on another port), and
// appears in no output or diagnostic, even when the registry refuses it.
func TestTokenSentOnlyToItsHost(t *testing.T) {
	const token = "s3cr3t-token-value"
	registry, files := newServer(t), newServer(t)
	registry.Versions["acme/net/aws"] = []string{"1.0.0"}
	registry.Locations["acme/net/aws/1.0.0"] = files.URL + "/net.zip"
	files.Files["/net.zip"] = zipOf(t, []entry{{Name: "main.tf"}})
	registry.Raw["/v1/modules/acme/private/aws/versions"] = rawAnswer{401, `{"errors":["not authorized"]}`}
	registry.Versions["acme/moved/aws"] = []string{"1.0.0"}
	registry.Locations["acme/moved/aws/1.0.0"] = "/moved.zip"
	registry.Redirects = map[string]string{"/moved.zip": files.URL + "/net.zip"}
	creds := NewCredentials(map[string]string{registry.Host(): token})

	wd := t.TempDir()
	writeFiles(t, wd, map[string]string{"main.tf": `
module "net" { source = "` + registry.Host() + `/acme/net/aws" }
module "private" { source = "` + registry.Host() + `/acme/private/aws" }
module "moved" { source = "` + registry.Host() + `/acme/moved/aws" }
`})
	m, ds, out := install(t, Installer{WorkDir: wd, HTTPClient: registry.Client(), Credentials: creds})
	for _, key := range []string{"net", "moved"} {
		if _, ok := m.Record(key); !ok {
			t.Errorf("module %s was not installed: %v", key, ds.Err())
		}
	}
	if len(ds) != 1 || ds[0].Summary != "Error accessing remote module registry" || !strings.Contains(ds[0].Detail, "401 Unauthorized") {
		t.Errorf("diagnostics %v, want the refusal of module private", ds.Err())
	}
	regRequests := registry.Requests()
	if len(regRequests) < 3 {
		t.Fatalf("the registry saw %d requests, want discovery, versions and download at least", len(regRequests))
	}
	for _, r := range regRequests {
		if r.Authorization != "Bearer "+token {
			t.Errorf("registry request %s had Authorization %q, want the token", r.Path, r.Authorization)
		}
	}
	fileRequests := files.Requests()
	if len(fileRequests) != 2 {
		t.Errorf("the file server saw %v, want two downloads (one redirected from the registry)", fileRequests)
	}
	for _, r := range fileRequests {
		if r.Authorization != "" {
			t.Errorf("file request %s carried Authorization %q", r.Path, r.Authorization)
		}
	}
	for _, s := range []string{out, ds.Err().Error()} {
		if strings.Contains(s, token) {
			t.Errorf("the token appears in %q", s)
		}
	}
	manifest, err := os.ReadFile(filepath.Join(wd, ModulesDir, ManifestFile))
	if err != nil || strings.Contains(string(manifest), token) {
		t.Errorf("manifest %s (%v) holds the token", manifest, err)
	}
}
