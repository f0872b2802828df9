package getmodules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
)

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
	creds := getproviders.NewCredentials(map[string]string{registry.Host(): token}, nil)

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
