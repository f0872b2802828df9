package command

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
)

// packedMirror returns a filesystem mirror holding packed packages of
// example.com/acme/fake (whose executable is never run) at each version
// for each platform.
func packedMirror(t *testing.T, versions []string, platforms ...string) string {
	t.Helper()
	dir := t.TempDir()
	pdir := filepath.Join(dir, "example.com", "acme", "fake")
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		for _, platform := range platforms {
			f, err := os.Create(filepath.Join(pdir, "terraform-provider-fake_"+v+"_"+platform+".zip"))
			if err != nil {
				t.Fatal(err)
			}
			zw := zip.NewWriter(f)
			w, err := zw.CreateHeader(&zip.FileHeader{Name: "terraform-provider-fake_v" + v, Method: zip.Deflate})
			if err == nil {
				_, err = w.Write([]byte("fake provider " + v + " for " + platform))
			}
			if err == nil {
				err = zw.Close()
			}
			if err == nil {
				err = f.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

const fakeConfig = `
terraform {
  required_providers {
    fake = { source = "example.com/acme/fake", version = "~> 1.0" }
  }
}
resource "terraform_data" "a" {}
`

// TestProvidersLock records the newest allowed version with the h1: and
// zh: hashes of each platform's package, says what it obtained, and on a
// second run finds nothing to change.
func TestProvidersLock(t *testing.T) {
	mirror := packedMirror(t, []string{"1.0.0", "1.2.0", "2.0.0"}, "linux_amd64", "darwin_arm64")
	dir := workDir(t, map[string]string{"main.tf": fakeConfig})
	r := rig(t, dir, "providers", "lock", "-no-color", "-fs-mirror="+mirror, "-platform=linux_amd64", "-platform=darwin_arm64")
	if r.code != 0 {
		t.Fatalf("providers lock: exit %d\n%s", r.code, r.stderr)
	}
	want := `- Fetching example.com/acme/fake 1.2.0 for linux_amd64...
- Retrieved example.com/acme/fake 1.2.0 for linux_amd64 (unauthenticated)
- Fetching example.com/acme/fake 1.2.0 for darwin_arm64...
- Retrieved example.com/acme/fake 1.2.0 for darwin_arm64 (unauthenticated)
- Obtained example.com/acme/fake checksums for linux_amd64; This was a new provider and the checksums for this platform are now tracked in the lock file
- Obtained example.com/acme/fake checksums for darwin_arm64; This was a new provider and the checksums for this platform are now tracked in the lock file

Success! rig has updated the lock file.

Review the changes in .terraform.lock.hcl and then commit to your
version control system to retain the new checksums.
`
	if r.stdout != want {
		t.Errorf("providers lock output:\n%s\nwant:\n%s", r.stdout, want)
	}
	locks, ds := getproviders.ReadLockFile(filepath.Join(dir, getproviders.LockFileName))
	if ds.HasErrors() || len(locks.Providers) != 1 {
		t.Fatalf("lock file: %v, %d providers", ds.Err(), len(locks.Providers))
	}
	lk := locks.Sorted()[0]
	var wantHashes []string
	for _, platform := range []string{"linux_amd64", "darwin_arm64"} {
		zipPath := filepath.Join(mirror, "example.com", "acme", "fake", "terraform-provider-fake_1.2.0_"+platform+".zip")
		h1, err := getproviders.HashZip(zipPath)
		if err != nil {
			t.Fatal(err)
		}
		zh, err := getproviders.HashZipLegacy(zipPath)
		if err != nil {
			t.Fatal(err)
		}
		wantHashes = append(wantHashes, h1, zh)
	}
	if lk.Version.String() != "1.2.0" || lk.Constraints != "~> 1.0" || len(lk.Hashes) != 4 || !containsAll(lk.Hashes, wantHashes) {
		t.Errorf("lock %s %q %v, want 1.2.0 \"~> 1.0\" %v", lk.Version, lk.Constraints, lk.Hashes, wantHashes)
	}

	r = rig(t, dir, "providers", "lock", "-no-color", "-fs-mirror="+mirror, "-platform=linux_amd64")
	if r.code != 0 || !strings.Contains(r.stdout, "; All checksums for this platform were already tracked in the lock file\n\nSuccess! rig has validated the lock file and found no need for changes.\n") {
		t.Errorf("second providers lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProvidersLockErrors covers a provider argument the configuration
// does not require and a platform the mirror has no package for.
func TestProvidersLockErrors(t *testing.T) {
	mirror := packedMirror(t, []string{"1.0.0"}, "linux_amd64")
	dir := workDir(t, map[string]string{"main.tf": fakeConfig})
	r := rig(t, dir, "providers", "lock", "-no-color", "-fs-mirror="+mirror, "hashicorp/nope")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid provider argument\n\nThe provider registry.terraform.io/hashicorp/nope is not required by the\ncurrent configuration.") {
		t.Errorf("unknown provider: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "providers", "lock", "-no-color", "-fs-mirror="+mirror, "-platform=linux_amd64", "-platform=windows_386")
	if r.code != 1 || strings.Contains(r.stdout, "Obtained") || !strings.Contains(r.stderr, "Error: Could not retrieve providers for locking") || !strings.Contains(r.stderr, "windows_386") {
		t.Errorf("missing platform: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, getproviders.LockFileName)); !os.IsNotExist(err) {
		t.Errorf("lock file written after an error: %v", err)
	}
	r = rig(t, dir, "providers", "lock", "-no-color", "-platform=linux")
	if r.code != 1 || !strings.Contains(r.stderr, "invalid value \"linux\" for flag -platform") {
		t.Errorf("bad platform: exit %d\n%s", r.code, r.stderr)
	}
}

// TestProvidersLockBuiltIn has nothing to lock for the built-in provider.
func TestProvidersLockBuiltIn(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	r := rig(t, dir, "providers", "lock", "-no-color")
	if r.code != 0 || r.stdout != "\nSuccess! rig has validated the lock file and found no need for changes.\n" {
		t.Errorf("providers lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, getproviders.LockFileName)); !os.IsNotExist(err) {
		t.Errorf("lock file written: %v", err)
	}
}

// TestProvidersLockRandom writes for the real random provider the lock
// init writes.
func TestProvidersLockRandom(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": realImportConfig})
	r := rig(t, dir, "providers", "lock", "-no-color", "-fs-mirror="+mirror)
	if r.code != 0 || !strings.Contains(r.stdout, "- Retrieved hashicorp/random 3.") || !strings.Contains(r.stdout, "Success! rig has updated the lock file.") {
		t.Fatalf("providers lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	locked, err := os.ReadFile(filepath.Join(dir, getproviders.LockFileName))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, getproviders.LockFileName))
	runOK(t, dir, "init", "-plugin-dir="+mirror)
	inited, err := os.ReadFile(filepath.Join(dir, getproviders.LockFileName))
	if err != nil || string(inited) != string(locked) {
		t.Errorf("providers lock wrote:\n%s\ninit writes:\n%s", locked, inited)
	}
}

// containsAll reports whether have holds every hash of want.
func containsAll(have, want []string) bool {
	for _, h := range want {
		if !slices.Contains(have, h) {
			return false
		}
	}
	return true
}
