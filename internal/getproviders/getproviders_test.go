package getproviders

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
)

func TestConstraints(t *testing.T) {
	tests := []struct {
		constraints, normalized string
		allow, deny             []string
	}{
		{"~> 3.0", "~> 3.0", []string{"3.0.0", "3.9.1"}, []string{"2.9.9", "4.0.0", "3.1.0-beta"}},
		{"~> 3", "~> 3.0", []string{"3.0.0", "3.9.1"}, []string{"4.0.0"}},
		{"~> 3.2.1", "~> 3.2.1", []string{"3.2.1", "3.2.9"}, []string{"3.3.0", "3.2.0"}},
		{">= 1.2, < 2", ">= 1.2.0, < 2.0.0", []string{"1.2.0", "1.9.9"}, []string{"1.1.9", "2.0.0"}},
		{"3.2.4", "3.2.4", []string{"3.2.4"}, []string{"3.2.5"}},
		{"= 1.0.0-beta1", "1.0.0-beta1", []string{"1.0.0-beta1"}, []string{"1.0.0"}},
		{"!= 2.0.0", "!= 2.0.0", []string{"2.0.1"}, []string{"2.0.0"}},
		{"", "", []string{"0.0.1", "9.9.9"}, []string{"1.0.0-rc1"}},
		// Sorted as OpenTofu writes them: by boundary, then lower bounds first.
		{"< 2, >= 1.2", ">= 1.2.0, < 2.0.0", []string{"1.2.0"}, []string{"2.0.0"}},
		{"< 4.0, ~> 3.1, >= 3.1.2, != 3.5.0", "~> 3.1, >= 3.1.2, != 3.5.0, < 4.0.0", []string{"3.1.2", "3.9.0"}, []string{"3.1.1", "3.5.0"}},
		{"<= 3.0.0, >= 3.0.0, > 3.0.0, ~> 3.0.0, ~> 3.0, 3.0.0", "> 3.0.0, >= 3.0.0, 3.0.0, ~> 3.0.0, ~> 3.0, <= 3.0.0", nil, []string{"3.0.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.constraints, func(t *testing.T) {
			cs, err := ParseConstraints(tt.constraints)
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.String(); got != tt.normalized {
				t.Errorf("String() = %q, want %q", got, tt.normalized)
			}
			for _, v := range tt.allow {
				if !cs.Allows(mustVersion(t, v)) {
					t.Errorf("%s not allowed", v)
				}
			}
			for _, v := range tt.deny {
				if cs.Allows(mustVersion(t, v)) {
					t.Errorf("%s allowed", v)
				}
			}
		})
	}
	for _, bad := range []string{">= x", "~>", "1.2.3.4", "01.2"} {
		if _, err := ParseConstraints(bad); err == nil {
			t.Errorf("ParseConstraints(%q) succeeded", bad)
		}
	}
}

func mustVersion(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// terraformLockFile is a lock file as Terraform 1.11 writes it (but for the
// tool named in the header).
const terraformLockFile = `# This file is maintained automatically by "rig init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/local" {
  version = "2.9.0"
  hashes = [
    "h1:wFYzJd2SLBR+ya3MZz5tT/6P5g6aO0wwZJHdv8VvdAc=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version     = "3.9.0"
  constraints = "~> 3.0"
  hashes = [
    "h1:xXkibfLdPNn0Xfmbc0L3jeEKtU1qw2/xiOcNeWpsRfM=",
    "zh:be5d52b5f317127c0e9b1b56cacdcbe7ca1106c1f623817fb5a3d0bbf6e3df44",
  ]
}
`

func TestLockFileRoundTrip(t *testing.T) {
	locks, ds := ParseLockFile([]byte(terraformLockFile), LockFileName)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	random := locks.Get(addrs.NewDefaultProvider("random"))
	if random == nil || random.Version.String() != "3.9.0" || random.Constraints != "~> 3.0" || len(random.Hashes) != 2 {
		t.Fatalf("random lock = %+v", random)
	}
	if diff := cmp.Diff(terraformLockFile, string(locks.Marshal())); diff != "" {
		t.Errorf("Marshal (-want +got):\n%s", diff)
	}
	path := filepath.Join(t.TempDir(), LockFileName)
	if err := WriteLockFile(path, locks); err != nil {
		t.Fatal(err)
	}
	again, ds := ReadLockFile(path)
	if ds.HasErrors() || !again.Equal(locks) {
		t.Errorf("read back: %v, equal %v", ds.Err(), again.Equal(locks))
	}
	if _, ds := ParseLockFile([]byte(`provider "hashicorp/x" { version = "one" }`), "bad"); !ds.HasErrors() {
		t.Error("an invalid version parsed")
	}
}

// fakeMirror lays out provider packages holding a small fake executable:
// unpacked for versions in dirs, packed for versions in zips.
func fakeMirror(t *testing.T, typ string, dirs, zips []string) string {
	t.Helper()
	root := t.TempDir()
	base := filepath.Join(root, "registry.terraform.io", "hashicorp", typ)
	for _, v := range dirs {
		pkg := filepath.Join(base, v, CurrentPlatform.String())
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "terraform-provider-"+typ+"_v"+v), []byte("#!/bin/sh\n# "+v+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range zips {
		if err := os.MkdirAll(base, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(base, "terraform-provider-"+typ+"_"+v+"_"+CurrentPlatform.String()+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		h := &zip.FileHeader{Name: "terraform-provider-" + typ + "_v" + v, Method: zip.Deflate}
		h.SetMode(0o755)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte("#!/bin/sh\n# " + v + "\n"))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return root
}

func TestInstall(t *testing.T) {
	null := addrs.NewDefaultProvider("null")
	mirror := fakeMirror(t, "null", []string{"3.1.0", "3.2.0"}, []string{"3.2.4", "4.0.0"})
	cache := t.TempDir()
	var logs []string
	inst := &Installer{
		Sources:   []SourceEntry{{Source: FilesystemMirror{Dir: mirror}}},
		TargetDir: filepath.Join(t.TempDir(), "providers"),
		CacheDir:  cache,
		Log:       func(s string) { logs = append(logs, s) },
	}
	ctx := context.Background()
	cs, _ := ParseConstraints("~> 3.1")
	req := []Requirement{{Provider: null, Constraints: cs}}

	// The newest allowed version, from the zip: h1 of its content and zh of the file.
	locks, ds := inst.Install(ctx, req, NewLocks(), InstallOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	lk := locks.Get(null)
	zipPath := filepath.Join(mirror, "registry.terraform.io", "hashicorp", "null", "terraform-provider-null_3.2.4_"+CurrentPlatform.String()+".zip")
	h1, _ := HashZip(zipPath)
	zh, _ := HashZipLegacy(zipPath)
	if lk.Version.String() != "3.2.4" || lk.Constraints != "~> 3.1" || !cmp.Equal(lk.Hashes, sortedUnique([]string{h1, zh})) {
		t.Fatalf("lock = %+v, want 3.2.4 with [%s %s]", lk, h1, zh)
	}
	installed, ds := VerifyInstalled(inst.TargetDir, locks, CurrentPlatform)
	if ds.HasErrors() || !strings.HasSuffix(installed[null].Executable, "terraform-provider-null_v3.2.4") {
		t.Fatalf("VerifyInstalled = %+v, %v", installed, ds.Err())
	}
	if h, _ := HashDir(PackageDir(cache, null, lk.Version, CurrentPlatform)); h != h1 {
		t.Errorf("the cache holds %s, want the unpacked zip %s", h, h1)
	}

	// Locked and installed: reused as is.
	logs = nil
	again, ds := inst.Install(ctx, req, locks, InstallOptions{})
	if ds.HasErrors() || !again.Equal(locks) || !strings.Contains(strings.Join(logs, "\n"), "- Using previously-installed hashicorp/null v3.2.4") {
		t.Fatalf("second install: %v\n%s", ds.Err(), strings.Join(logs, "\n"))
	}

	// A narrower constraint excludes the locked version: -upgrade is needed.
	pinned, _ := ParseConstraints("3.2.0")
	if _, ds := inst.Install(ctx, []Requirement{{Provider: null, Constraints: pinned}}, locks, InstallOptions{}); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "-upgrade") {
		t.Errorf("locked version outside the constraints: %v", ds.Err())
	}
	up, ds := inst.Install(ctx, []Requirement{{Provider: null, Constraints: pinned}}, locks, InstallOptions{Upgrade: true})
	if ds.HasErrors() || up.Get(null).Version.String() != "3.2.0" || len(up.Get(null).Hashes) != 1 {
		t.Fatalf("upgrade to 3.2.0: %+v %v", up.Get(null), ds.Err())
	}
	// The unpacked package is linked, so its h1 is that of the mirror's directory.
	if h, _ := HashDir(filepath.Join(mirror, "registry.terraform.io", "hashicorp", "null", "3.2.0", CurrentPlatform.String())); up.Get(null).Hashes[0] != h {
		t.Errorf("3.2.0 hash %s, want %s", up.Get(null).Hashes[0], h)
	}

	// A lock trusting other hashes refuses the package, at install and after.
	bad := NewLocks()
	bad.Set(&Lock{Provider: null, Version: mustVersion(t, "3.2.0"), Hashes: []string{"h1:AAAA="}})
	if _, ds := inst.Install(ctx, []Requirement{{Provider: null, Constraints: pinned}}, bad, InstallOptions{}); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "doesn't match any of the checksums") {
		t.Errorf("mismatched hash at install: %v", ds.Err())
	}
	if _, ds := VerifyInstalled(inst.TargetDir, bad, CurrentPlatform); !ds.HasErrors() || ds[0].Summary != "Required plugins are not installed" {
		t.Errorf("mismatched hash after install: %v", ds.Err())
	}

	// Nothing matches; nothing found.
	nine, _ := ParseConstraints("~> 9.0")
	if _, ds := inst.Install(ctx, []Requirement{{Provider: null, Constraints: nine}}, NewLocks(), InstallOptions{}); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "no available releases match the given constraints ~> 9.0") {
		t.Errorf("unmatched constraints: %v", ds.Err())
	}
	other := addrs.NewDefaultProvider("other")
	_, ds = inst.Install(ctx, []Requirement{{Provider: other}}, NewLocks(), InstallOptions{})
	if !ds.HasErrors() || !strings.Contains(ds[0].Detail, "  - "+mirror) || !strings.Contains(ds[0].Detail, "hashicorp/other/VERSION/"+CurrentPlatform.String()) {
		t.Errorf("not found: %v", ds.Err())
	}
}

func TestParseCLIConfig(t *testing.T) {
	t.Setenv("MIRRORS", "/srv/mirrors")
	cfg, ds := ParseCLIConfig([]byte(`
plugin_cache_dir = "$MIRRORS/cache"
credentials "app.terraform.io" {
  token = "secret"
}
provider_installation {
  dev_overrides {
    "hashicorp/null" = "/home/dev/go/bin"
  }
  filesystem_mirror {
    path    = "/srv/mirrors/providers"
    include = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
`), "test.tfrc")
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if cfg.PluginCacheDir != "/srv/mirrors/cache" || cfg.DevOverrides[addrs.NewDefaultProvider("null")] != "/home/dev/go/bin" || len(cfg.Installation) != 2 {
		t.Fatalf("config = %+v", cfg)
	}
	fs := cfg.Installation[0]
	example := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "thing"}
	if fs.Kind != "filesystem_mirror" || fs.Path != "/srv/mirrors/providers" || !anyMatch(fs.Include, example) || anyMatch(fs.Include, addrs.NewDefaultProvider("null")) {
		t.Errorf("filesystem_mirror = %+v", fs)
	}
	if cfg.Credentials["app.terraform.io"] != "secret" {
		t.Errorf("credentials = %v", cfg.Credentials)
	}
	sources, ds := cfg.Sources(nil, cfg.Client())
	if len(sources) != 3 || len(ds) != 0 {
		t.Errorf("Sources = %+v, %v", sources, ds)
	} else if _, ok := sources[1].Source.(RegistrySource); !ok || !anyMatch(sources[1].Exclude, example) {
		t.Errorf("the direct method = %+v", sources[1])
	}
	if sources, _ := cfg.Sources([]string{"plugins"}, nil); len(sources) != 1 || sources[0].Source.ForDisplay(example) != "plugins" {
		t.Errorf("-plugin-dir sources = %+v", sources)
	}
	if _, ds := ParseCLIConfig([]byte(`provider_installation { bogus {} }`), "bad.tfrc"); !ds.HasErrors() {
		t.Error("an unknown installation method parsed")
	}
}
