package command

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders"
)

// TestInitProviderNotFound: a provider no mirror has is an error that
// names every directory searched and the layouts expected there.
func TestInitProviderNotFound(t *testing.T) {
	mirror := t.TempDir()
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = ">= 3.0" }
  }
}
resource "null_resource" "a" {}
`})
	r := rig(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	for _, want := range []string{
		"Error: Failed to query available provider packages",
		"provider registry.terraform.io/hashicorp/null was not found in any of the search locations",
		"  - " + mirror,
		"registry.terraform.io/hashicorp/null/VERSION/" + getproviders.CurrentPlatform.String() + "/terraform-provider-null_vVERSION",
		"terraform-provider-null_VERSION_" + getproviders.CurrentPlatform.String() + ".zip",
	} {
		if r.code != 1 || !containsText(r.stderr, want) {
			t.Errorf("init: exit %d, want 1 and %q in:\n%s", r.code, want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, getproviders.LockFileName)); !os.IsNotExist(err) {
		t.Errorf("a failed init wrote the lock file: %v", err)
	}
	// Without the provider, plan says what to do.
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Inconsistent dependency lock file") || !strings.Contains(r.stderr, "rig init") {
		t.Errorf("plan: exit %d, want the lock file error naming rig init:\n%s", r.code, r.stderr)
	}
}

// TestRealProvidersInstallMethods installs the real random provider from a
// CLI configuration's filesystem_mirror in both layouts, through the
// plugin cache, honours the lock file until -upgrade, refuses a package
// that does not match the lock, and runs a dev_overrides provider without
// installation.
func TestRealProvidersInstallMethods(t *testing.T) {
	mirror := realMirror(t, "random")
	random := addrs.NewDefaultProvider("random")
	vs, _ := getproviders.FilesystemMirror{Dir: mirror}.AvailableVersions(t.Context(), random, getproviders.CurrentPlatform)
	src := getproviders.PackageDir(mirror, random, vs[0], getproviders.CurrentPlatform)
	exe, ok := getproviders.FindExecutable(src, random)
	if !ok {
		t.Fatalf("no executable in %s", src)
	}
	platform := getproviders.CurrentPlatform.String()

	// The local mirror: 3.8.0 unpacked at first; 3.9.0 packed later.
	local := t.TempDir()
	old := filepath.Join(local, "registry.terraform.io", "hashicorp", "random", "3.8.0", platform)
	linkOrCopy(t, exe, filepath.Join(old, "terraform-provider-random_v3.8.0"))
	cache := t.TempDir()
	cliConfig := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
plugin_cache_dir = "`+cache+`"
provider_installation {
  filesystem_mirror {
    path    = "`+local+`"
    include = ["hashicorp/*"]
  }
  direct {
    exclude = ["hashicorp/*"]
  }
}
`)
	t.Setenv("TF_CLI_CONFIG_FILE", cliConfig)
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.5.0, < 4.0.0" }
  }
}
resource "random_id" "a" {
  byte_length = 4
}
`})
	r := runOK(t, dir, "init")
	if !strings.Contains(r.stdout, "- Installed hashicorp/random v3.8.0 (unauthenticated)") {
		t.Errorf("first init:\n%s", r.stdout)
	}
	// As OpenTofu's and Terraform's: the only warning is that the lock
	// file holds this platform's checksums only.
	if n := strings.Count(r.stdout+r.stderr, "Warning:"); n != 1 || !strings.Contains(r.stdout, "Warning: Incomplete lock file information for providers") {
		t.Errorf("init warns:\n%s%s", r.stdout, r.stderr)
	}
	lock := readLock(t, dir)
	if lock.Version.String() != "3.8.0" || lock.Constraints != ">= 3.5.0, < 4.0.0" {
		t.Errorf("lock = %s %q", lock.Version, lock.Constraints)
	}

	// 3.9.0 arrives, packed; init keeps the locked 3.8.0.
	zipPath := filepath.Join(local, "registry.terraform.io", "hashicorp", "random", "terraform-provider-random_3.9.0_"+platform+".zip")
	writeZip(t, zipPath, "terraform-provider-random_v3.9.0", exe)
	r = runOK(t, dir, "init")
	if !strings.Contains(r.stdout, "- Reusing previous version of hashicorp/random from the dependency lock file") ||
		!strings.Contains(r.stdout, "- Using previously-installed hashicorp/random v3.8.0") {
		t.Errorf("second init:\n%s", r.stdout)
	}

	// -upgrade takes 3.9.0 from the zip, unpacked into the plugin cache.
	r = runOK(t, dir, "init", "-upgrade")
	if !strings.Contains(r.stdout, "- Installed hashicorp/random v3.9.0") || !strings.Contains(r.stdout, "rig has made some changes to the provider dependency selections") {
		t.Errorf("init -upgrade:\n%s", r.stdout)
	}
	lock = readLock(t, dir)
	zh, _ := getproviders.HashZipLegacy(zipPath)
	h1, _ := getproviders.HashZip(zipPath)
	if lock.Version.String() != "3.9.0" || strings.Join(lock.Hashes, " ") != strings.Join(sortStrings(h1, zh), " ") {
		t.Errorf("lock after -upgrade = %s %v, want 3.9.0 [%s %s]", lock.Version, lock.Hashes, h1, zh)
	}
	cached := getproviders.PackageDir(cache, random, lock.Version, getproviders.CurrentPlatform)
	if got, err := getproviders.HashDir(cached); err != nil || got != h1 {
		t.Errorf("plugin cache %s: hash %s, %v; want %s", cached, got, err, h1)
	}
	if target, err := os.Readlink(getproviders.PackageDir(filepath.Join(dir, ".terraform", "providers"), random, lock.Version, getproviders.CurrentPlatform)); err != nil || target != cached {
		t.Errorf("installed package links to %q (%v), want the cache %s", target, err, cached)
	}
	runOK(t, dir, "apply", "-auto-approve")

	// A lock file that trusts other hashes: plan and init refuse the package.
	lockSrc, _ := os.ReadFile(filepath.Join(dir, getproviders.LockFileName))
	tampered := strings.Replace(string(lockSrc), h1, "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", 1)
	tampered = strings.Replace(tampered, zh, "zh:0000000000000000000000000000000000000000000000000000000000000000", 1)
	writeFile(t, dir, getproviders.LockFileName, tampered)
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Required plugins are not installed") || !strings.Contains(r.stderr, "registry.terraform.io/hashicorp/random") {
		t.Errorf("plan with a mismatched lock: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "init", "-no-color")
	if r.code != 1 || !containsText(r.stderr, "doesn't match any of the checksums previously recorded in the dependency lock file") {
		t.Errorf("init with a mismatched lock: exit %d\n%s", r.code, r.stderr)
	}

	// dev_overrides: no installation, no lock.
	writeFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
provider_installation {
  dev_overrides {
    "hashicorp/random" = "`+old+`"
  }
}
`)
	os.RemoveAll(filepath.Join(dir, ".terraform", "providers"))
	os.Remove(filepath.Join(dir, getproviders.LockFileName))
	r = rig(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if r.code != 0 || !strings.Contains(r.stdout, "No changes.") || !strings.Contains(r.stdout, "Provider development overrides are in effect") {
		t.Errorf("plan with dev_overrides: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, dir, "destroy", "-auto-approve")
}

func readLock(t *testing.T, dir string) *getproviders.Lock {
	t.Helper()
	locks, ds := getproviders.ReadLockFile(filepath.Join(dir, getproviders.LockFileName))
	if ds.HasErrors() || len(locks.Providers) != 1 {
		t.Fatalf("lock file: %v (%d providers)", ds.Err(), len(locks.Providers))
	}
	return locks.Sorted()[0]
}

func sortStrings(a, b string) []string {
	if a < b {
		return []string{a, b}
	}
	return []string{b, a}
}

// linkOrCopy hard-links (or copies) the executable from to to.
func linkOrCopy(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Link(from, to) == nil {
		return
	}
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeZip writes a provider package archive holding one executable,
// stored uncompressed (quick to write, same hashes).
func writeZip(t *testing.T, path, name, exe string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: name, Method: zip.Store}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := io.Copy(w, in); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// containsText reports whether s contains want, ignoring how either is
// wrapped into lines.
func containsText(s, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(want), " "))
}
