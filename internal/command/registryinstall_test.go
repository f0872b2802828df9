package command

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// builtTestProvider is the test provider plugin (provider/plugin/
// testdata/testprovider), built once per test process.
var builtTestProvider struct {
	once sync.Once
	exe  []byte
	err  error
}

func testProviderExecutable(t *testing.T) []byte {
	t.Helper()
	builtTestProvider.once.Do(func() {
		dir, err := os.MkdirTemp("", "rig-testprovider-")
		if err != nil {
			builtTestProvider.err = err
			return
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "terraform-provider-test")
		if out, err := exec.Command("go", "build", "-o", bin, "../provider/plugin/testdata/testprovider").CombinedOutput(); err != nil {
			builtTestProvider.err = fmt.Errorf("building the test provider: %v\n%s", err, out)
			return
		}
		builtTestProvider.exe, builtTestProvider.err = os.ReadFile(bin)
	})
	if builtTestProvider.err != nil {
		t.Fatal(builtTestProvider.err)
	}
	return builtTestProvider.exe
}

// registryPlatforms are the platforms test registries serve: the current
// one and two others.
func registryPlatforms() []string {
	ps := []string{"darwin_arm64", "windows_amd64"}
	if cur := getproviders.CurrentPlatform.String(); !slices.Contains(ps, cur) {
		ps = append(ps, cur)
	}
	slices.Sort(ps)
	return ps
}

// trustRegistries makes rig (and terraform, for the comparisons) trust
// the test servers' certificate through SSL_CERT_FILE, and points
// TF_CLI_CONFIG_FILE at a file with cliConfig.
func trustRegistries(t *testing.T, reg *registrytest.Registry, cliConfig string) string {
	t.Helper()
	dir := t.TempDir()
	certFile := filepath.Join(dir, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: reg.Server.Certificate().Raw})
	if err := os.WriteFile(certFile, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", certFile)
	cfg := filepath.Join(dir, "cli.tfrc")
	if err := os.WriteFile(cfg, []byte(cliConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_CLI_CONFIG_FILE", cfg)
	for _, env := range os.Environ() {
		if name, _, _ := strings.Cut(env, "="); strings.HasPrefix(name, "TF_TOKEN_") {
			t.Setenv(name, "")
		}
	}
	return cfg
}

// TestRegistryInitEndToEnd: rig init finds a registry by service
// discovery, selects a version, downloads the package, checks it against
// the signed SHA256SUMS, installs it and writes the lock file; then plan
// runs the installed provider.
func TestRegistryInitEndToEnd(t *testing.T) {
	exe := testProviderExecutable(t)
	var rels []registrytest.Release
	for _, v := range []string{"0.9.0", "1.2.0", "2.0.0"} {
		rels = append(rels, registrytest.Release{Namespace: "rig", Type: "test", Version: v, Platforms: registryPlatforms(), Executable: exe, Protocols: []string{"5.0", "6.0"}})
	}
	reg := registrytest.New(t, nil, rels...)
	trustRegistries(t, reg, "")
	source := reg.Host + "/rig/test"
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "` + source + `", version = "~> 1.0" }
  }
}
resource "test_thing" "a" {
  name = "from the registry"
}
`})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	keyID := reg.Key.PrimaryKey.KeyIdString()
	checkContains(t, "init output", r.stdout,
		fmt.Sprintf("- Finding %s versions matching \"~> 1.0\"...\n", source),
		fmt.Sprintf("- Installing %s v1.2.0...\n", source),
		fmt.Sprintf("- Installed %s v1.2.0 (self-signed, key ID %s)\n", source, keyID),
		"\nPartner and community providers are signed by their developers.\n",
		"rig has created a lock file .terraform.lock.hcl",
	)
	lock := readLock(t, dir)
	p := addrs.Provider{Hostname: reg.Host, Namespace: "rig", Type: "test"}
	installed := getproviders.PackageDir(filepath.Join(dir, ".terraform", "providers"), p, lock.Version, getproviders.CurrentPlatform)
	h1, err := getproviders.HashDir(installed)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{h1}
	for _, pl := range registryPlatforms() {
		sum := reg.ZipSHA256(rels[1], pl)
		want = append(want, fmt.Sprintf("zh:%x", sum))
	}
	want = append(want, fmt.Sprintf("zh:%x", registrytest.ManifestSHA256(rels[1])))
	slices.Sort(want)
	if lock.Version.String() != "1.2.0" || lock.Constraints != "~> 1.0" || !slices.Equal(lock.Hashes, want) {
		t.Errorf("lock = %s %q %v\nwant 1.2.0 \"~> 1.0\" %v", lock.Version, lock.Constraints, lock.Hashes, want)
	}
	info, err := os.Stat(filepath.Join(dir, getproviders.LockFileName))
	if err != nil || info.Mode().Perm()&0o022 != 0 {
		t.Errorf("lock file mode: %v %v", info.Mode(), err)
	}

	r = rig(t, dir, "plan", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "test_thing.a will be created") || !strings.Contains(r.stdout, `name    = "from the registry"`) {
		t.Errorf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A second init reuses the installed package without downloading.
	before := len(reg.Requests())
	r = rig(t, dir, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Using previously-installed "+source+" v1.2.0") {
		t.Errorf("second init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, req := range reg.Requests()[before:] {
		if strings.HasSuffix(req.Path, ".zip") {
			t.Errorf("second init downloaded %s", req.Path)
		}
	}
}

// TestRegistryInitRefuses: a package whose zip, SHA256SUMS or signature
// does not check out is not installed; the error names the file and the
// key, and no lock file is written.
func TestRegistryInitRefuses(t *testing.T) {
	other := registrytest.NewKey(t, "someone else")
	tests := []struct {
		name string
		opts registrytest.Options
		want []string
	}{
		{"tampered zip", registrytest.Options{TamperZip: true}, []string{"terraform-provider-fake_1.0.0_" + getproviders.CurrentPlatform.String() + ".zip", "/SHA256SUMS lists"}},
		{"bad signature", registrytest.Options{TamperSums: true}, []string{"/SHA256SUMS does not verify with the registry's key (key ID KEY)"}},
		{"unknown key", registrytest.Options{SignWith: other}, []string{"/SHA256SUMS was made by key ID OTHER, which is none of the keys the registry offers", "(key ID KEY)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registrytest.New(t, nil, registrytest.Release{Namespace: "acme", Type: "fake", Version: "1.0.0", Platforms: registryPlatforms()})
			reg.Set(t, tc.opts)
			trustRegistries(t, reg, "")
			dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    fake = { source = "` + reg.Host + `/acme/fake" }
  }
}
`})
			r := rig(t, dir, "init", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, "Error: Failed to install provider") {
				t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			repl := strings.NewReplacer("KEY", reg.Key.PrimaryKey.KeyIdString(), "OTHER", other.PrimaryKey.KeyIdString())
			for _, w := range tc.want {
				if w := repl.Replace(w); !containsText(r.stderr, w) {
					t.Errorf("init error lacks %q:\n%s", w, r.stderr)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, getproviders.LockFileName)); !os.IsNotExist(err) {
				t.Errorf("a refused install wrote the lock file: %v", err)
			}
		})
	}
}

// TestRegistryCredentialsInit: the token of a credentials block goes to
// its registry, and an error from that registry does not show it.
func TestRegistryCredentialsInit(t *testing.T) {
	const token = "very-secret-token.123"
	reg := registrytest.New(t, nil, registrytest.Release{Namespace: "acme", Type: "fake", Version: "1.0.0", Platforms: registryPlatforms()})
	reg.Set(t, registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, "/versions") {
			http.Error(w, "forbidden: "+r.Header.Get("Authorization"), http.StatusForbidden)
			return true
		}
		return false
	}})
	trustRegistries(t, reg, `credentials "`+reg.Host+`" {
  token = "`+token+`"
}
`)
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    fake = { source = "` + reg.Host + `/acme/fake" }
  }
}
`})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 1 || !containsText(r.stderr, "403 Forbidden") || !strings.Contains(r.stderr, reg.Host+"/acme/fake") {
		t.Errorf("init: exit %d\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Errorf("init printed the token:\n%s%s", r.stdout, r.stderr)
	}
	requests := reg.Requests()
	if len(requests) == 0 {
		t.Fatal("no requests")
	}
	for _, req := range requests {
		if req.Authorization != "Bearer "+token {
			t.Errorf("%s had Authorization %q", req.Path, req.Authorization)
		}
	}
}

// TestRegistryInitPluginCache: with TF_PLUGIN_CACHE_DIR, init downloads
// into the cache and links from it; another directory with the same lock
// file takes the package from the cache without downloading.
func TestRegistryInitPluginCache(t *testing.T) {
	reg := registrytest.New(t, nil, registrytest.Release{Namespace: "acme", Type: "fake", Version: "1.0.0", Platforms: registryPlatforms()})
	trustRegistries(t, reg, "")
	cache := t.TempDir()
	t.Setenv("TF_PLUGIN_CACHE_DIR", cache)
	config := map[string]string{"main.tf": `
terraform {
  required_providers {
    fake = { source = "` + reg.Host + `/acme/fake" }
  }
}
`}
	zips := func() int {
		n := 0
		for _, r := range reg.Requests() {
			if strings.HasSuffix(r.Path, ".zip") {
				n++
			}
		}
		return n
	}
	first := workDir(t, config)
	if r := rig(t, first, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	p := addrs.Provider{Hostname: reg.Host, Namespace: "acme", Type: "fake"}
	v, _ := getproviders.ParseVersion("1.0.0")
	cached := getproviders.PackageDir(cache, p, v, getproviders.CurrentPlatform)
	if target, err := os.Readlink(getproviders.PackageDir(filepath.Join(first, ".terraform", "providers"), p, v, getproviders.CurrentPlatform)); err != nil || target != cached {
		t.Errorf("installed package links to %q (%v), want %s", target, err, cached)
	}
	second := workDir(t, config)
	lock, err := os.ReadFile(filepath.Join(first, getproviders.LockFileName))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, second, getproviders.LockFileName, string(lock))
	before := zips()
	r := rig(t, second, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Using "+p.String()+" v1.0.0 from the shared cache directory") {
		t.Errorf("second init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := zips() - before; n != 0 {
		t.Errorf("the second init downloaded %d zips", n)
	}
	if got, _ := os.ReadFile(filepath.Join(second, getproviders.LockFileName)); string(got) != string(lock) {
		t.Errorf("the lock file changed:\n%s\nwas:\n%s", got, lock)
	}
}
