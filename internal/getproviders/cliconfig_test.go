package getproviders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// TestParseCLIConfigNetwork reads the settings of the network sources:
// host blocks, credentials, network_mirror and direct methods, and the
// plugin cache's lock file setting.
func TestParseCLIConfigNetwork(t *testing.T) {
	cfg, ds := ParseCLIConfig([]byte(`
plugin_cache_may_break_dependency_lock_file = true
host "Registry.Example.com" {
  services = {
    "providers.v1" = "https://other.example.com/api/providers/"
    "modules.v1"   = "/modules/"
    "login.v1"     = { client = "terraform-cli", grant_types = ["code"] }
  }
}
credentials "registry.example.com" {
  token = "tok-1"
}
credentials "localhost:8443" {
  token = "tok-2"
}
provider_installation {
  network_mirror {
    url     = "https://mirror.example.com/providers"
    include = ["registry.example.com/*/*"]
  }
  direct {}
}
`), "net.tfrc")
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if !cfg.CacheMayBreakLock {
		t.Error("plugin_cache_may_break_dependency_lock_file not read")
	}
	wantHosts := map[string]map[string]string{"registry.example.com": {"providers.v1": "https://other.example.com/api/providers/", "modules.v1": "/modules/"}}
	if diff := cmp.Diff(wantHosts, cfg.Hosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"registry.example.com": "tok-1", "localhost:8443": "tok-2"}, cfg.Credentials); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
	sources, ds := cfg.Sources(nil, cfg.Client())
	if ds.HasErrors() || len(sources) != 2 {
		t.Fatalf("sources = %v, %v", sources, ds.Err())
	}
	nm, ok := sources[0].Source.(NetworkMirror)
	if !ok || nm.URL.String() != "https://mirror.example.com/providers/" {
		t.Errorf("network mirror = %#v", sources[0].Source)
	}
	if _, ok := sources[1].Source.(RegistrySource); !ok || len(sources[1].Include)+len(sources[1].Exclude) != 0 {
		t.Errorf("direct = %#v", sources[1])
	}
	u, err := cfg.Client().ServiceURL(t.Context(), "registry.example.com", "providers.v1")
	if err != nil || u.String() != "https://other.example.com/api/providers/" {
		t.Errorf("ServiceURL = %v, %v", u, err)
	}
}

// TestParseCLIConfigCredentialsWarning: a credentials block that gives no
// usable token is a warning (its host just has none), never an error that
// would stop an init.
func TestParseCLIConfigCredentialsWarning(t *testing.T) {
	cfg, ds := ParseCLIConfig([]byte(`credentials "x.io" { token = 12 }`), "bad.tfrc")
	if ds.HasErrors() || len(ds) != 1 || !strings.Contains(ds[0].Detail, `The token for host "x.io" must be a string`) {
		t.Fatalf("diagnostics %+v, want one warning about the token", ds)
	}
	if _, ok := cfg.Credentials["x.io"]; ok {
		t.Error("a token that is not a string was kept")
	}
}

func TestParseCLIConfigErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"http mirror", `provider_installation { network_mirror { url = "http://mirror.example.com/" } }`, "requires a \"url\" argument with an https: URL"},
		{"mirror without url", `provider_installation { network_mirror {} }`, "requires a \"url\" argument"},
		{"unlabelled host", `host { services = {} }`, "A host block must be written"},
		{"cache setting not a bool", `plugin_cache_may_break_dependency_lock_file = "yes"`, "must be true or false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := ParseCLIConfig([]byte(tc.src), "bad.tfrc")
			if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tc.want) {
				t.Errorf("diagnostics = %v, want %q", ds.Err(), tc.want)
			}
		})
	}
}

// TestImpliedSources: without provider_installation, each implied mirror
// directory that holds providers serves those, and the registries serve
// every other provider.
func TestImpliedSources(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_DATA_DIRS", filepath.Join(home, "none"))
	t.Chdir(t.TempDir())
	held := filepath.Join(home, ".terraform.d", "plugins", "registry.terraform.io", "hashicorp", "null", "3.2.4", "linux_amd64")
	if err := os.MkdirAll(held, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := newCLIConfig("")
	sources, ds := cfg.Sources(nil, cfg.Client())
	if ds.HasErrors() || len(sources) != 2 {
		t.Fatalf("sources = %v, %v", sources, ds.Err())
	}
	null, random := addrs.NewDefaultProvider("null"), addrs.NewDefaultProvider("random")
	if fs, ok := sources[0].Source.(FilesystemMirror); !ok || fs.Dir != filepath.Join(home, ".terraform.d", "plugins") || !sources[0].serves(null) || sources[0].serves(random) {
		t.Errorf("implied mirror = %#v", sources[0])
	}
	if _, ok := sources[1].Source.(RegistrySource); !ok || sources[1].serves(null) || !sources[1].serves(random) || !sources[1].serves(null.WithHostname("example.com")) {
		t.Errorf("implied direct = %#v", sources[1])
	}
}

// A TF_CLI_CONFIG_FILE that names nothing usable is reported, and the
// configuration is empty rather than an error.
func TestLoadCLIConfigUnusableFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path, want string
	}{
		{"missing file", filepath.Join(dir, "missing.tfrc"), "does not exist."},
		{"directory", dir, "is a directory, not a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TF_CLI_CONFIG_FILE", tt.path)
			cfg, ds := LoadCLIConfig()
			if len(ds) != 1 || ds[0].Severity != diag.Warning || ds[0].Summary != "Unable to open CLI configuration file" ||
				!strings.Contains(ds[0].Detail, tt.path) || !strings.Contains(ds[0].Detail, tt.want) {
				t.Fatalf("diagnostics = %v", ds)
			}
			if cfg == nil || len(cfg.DevOverrides) != 0 || len(cfg.Installation) != 0 {
				t.Errorf("configuration = %+v, want an empty one", cfg)
			}
		})
	}
}

// TestCLIConfigPathFromEnvironment: TF_CLI_CONFIG_FILE first, then
// TOFU_CLI_CONFIG_FILE, then the older TERRAFORM_CONFIG that OpenTofu and
// Terraform still read.
func TestCLIConfigPathFromEnvironment(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, tt := range []struct{ tf, tofu, legacy, want string }{
		{"a.tfrc", "b.tfrc", "c.tfrc", "a.tfrc"},
		{"", "b.tfrc", "c.tfrc", "b.tfrc"},
		{"", "", "c.tfrc", "c.tfrc"},
		{"", "", "", ""},
	} {
		t.Setenv("TF_CLI_CONFIG_FILE", tt.tf)
		t.Setenv("TOFU_CLI_CONFIG_FILE", tt.tofu)
		t.Setenv("TERRAFORM_CONFIG", tt.legacy)
		if got := CLIConfigPath(); got != tt.want {
			t.Errorf("TF_CLI_CONFIG_FILE=%q TOFU_CLI_CONFIG_FILE=%q TERRAFORM_CONFIG=%q: %q, want %q", tt.tf, tt.tofu, tt.legacy, got, tt.want)
		}
	}
}

// TestPluginCacheDirThatDoesNotExist: a plugin cache directory that does
// not exist is an error, as OpenTofu reports it, that stops nothing.
func TestPluginCacheDirThatDoesNotExist(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TF_CLI_CONFIG_FILE", "")
	t.Setenv("TOFU_CLI_CONFIG_FILE", "")
	t.Setenv("TERRAFORM_CONFIG", "")
	missing := filepath.Join(t.TempDir(), "cache")
	t.Setenv("TF_PLUGIN_CACHE_DIR", missing)
	cfg, ds := LoadCLIConfig()
	want := "The specified plugin cache dir " + missing + " cannot be opened: stat " + missing + ": no such file or directory"
	if len(ds) != 1 || ds[0].Severity != diag.Error || ds[0].Summary != want || ds[0].Detail != "" {
		t.Fatalf("diagnostics = %v", ds)
	}
	if cfg.Stops(ds) {
		t.Errorf("the missing cache directory stops commands")
	}
	if !cfg.Stops(append(ds, diag.Errorf("Invalid setting", "x"))) {
		t.Errorf("another error does not stop commands")
	}
	if cfg.PluginCacheDir != missing {
		t.Errorf("PluginCacheDir = %q, want %q", cfg.PluginCacheDir, missing)
	}
	if err := os.Mkdir(missing, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ds := LoadCLIConfig(); len(ds) != 0 {
		t.Errorf("with the directory there: %v", ds)
	}
}
