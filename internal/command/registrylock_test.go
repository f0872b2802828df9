package command

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// fakeRegistry serves acme/fake 1.0.0 and 1.2.0 for linux_amd64,
// darwin_arm64 and windows_amd64.
func fakeRegistry(t *testing.T) (*registrytest.Registry, []registrytest.Release) {
	t.Helper()
	var rels []registrytest.Release
	for _, v := range []string{"1.0.0", "1.2.0"} {
		rels = append(rels, registrytest.Release{Namespace: "acme", Type: "fake", Version: v, Platforms: []string{"darwin_arm64", "linux_amd64", "windows_amd64"}})
	}
	return registrytest.New(t, nil, rels...), rels
}

func fakeRegistryConfig(host string) string {
	return `
terraform {
  required_providers {
    fake = { source = "` + host + `/acme/fake", version = "~> 1.0" }
  }
}
`
}

// TestProvidersLockRegistry: providers lock downloads each platform's
// package from the registry, checks it, and records its h1: hash with the
// zh: hashes of every platform the signed SHA256SUMS lists.
func TestProvidersLockRegistry(t *testing.T) {
	reg, rels := fakeRegistry(t)
	trustRegistries(t, reg, "")
	dir := workDir(t, map[string]string{"main.tf": fakeRegistryConfig(reg.Host)})
	r := rig(t, dir, "providers", "lock", "-no-color", "-platform=linux_amd64", "-platform=darwin_arm64")
	if r.code != 0 {
		t.Fatalf("providers lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := strings.NewReplacer("HOST", reg.Host, "KEY", reg.Key.PrimaryKey.KeyIdString()).Replace(`- Fetching HOST/acme/fake 1.2.0 for linux_amd64...
- Retrieved HOST/acme/fake 1.2.0 for linux_amd64 (self-signed, key ID KEY)
- Fetching HOST/acme/fake 1.2.0 for darwin_arm64...
- Retrieved HOST/acme/fake 1.2.0 for darwin_arm64 (self-signed, key ID KEY)
- Obtained HOST/acme/fake checksums for linux_amd64; This was a new provider and the checksums for this platform are now tracked in the lock file
- Obtained HOST/acme/fake checksums for darwin_arm64; This was a new provider and the checksums for this platform are now tracked in the lock file

Success! rig has updated the lock file.

Review the changes in .terraform.lock.hcl and then commit to your
version control system to retain the new checksums.
`)
	if r.stdout != want {
		t.Errorf("providers lock output:\n%s\nwant:\n%s", r.stdout, want)
	}
	var wantHashes []string
	for _, pl := range []string{"darwin_arm64", "linux_amd64", "windows_amd64"} {
		zipPath := filepath.Join(t.TempDir(), "p.zip")
		if err := os.WriteFile(zipPath, reg.Zip(rels[1], pl), 0o644); err != nil {
			t.Fatal(err)
		}
		zh, _ := getproviders.HashZipLegacy(zipPath)
		wantHashes = append(wantHashes, zh)
		if pl != "windows_amd64" {
			h1, _ := getproviders.HashZip(zipPath)
			wantHashes = append(wantHashes, h1)
		}
	}
	wantHashes = append(wantHashes, fmt.Sprintf("zh:%x", registrytest.ManifestSHA256(rels[1])))
	slices.Sort(wantHashes)
	lock := readLock(t, dir)
	if lock.Version.String() != "1.2.0" || !slices.Equal(lock.Hashes, wantHashes) {
		t.Errorf("lock %s %v\nwant 1.2.0 %v", lock.Version, lock.Hashes, wantHashes)
	}
}

// TestProvidersLockMatchesTerraform: terraform providers lock against
// the same registry writes the same lock file, byte for byte but for the
// command its header comment names ("terraform init", "rig init").
func TestProvidersLockMatchesTerraform(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH")
	}
	reg, _ := fakeRegistry(t)
	trustRegistries(t, reg, "")
	config := fakeRegistryConfig(reg.Host)
	args := []string{"providers", "lock", "-platform=linux_amd64", "-platform=darwin_arm64", "-platform=windows_amd64"}

	ours := workDir(t, map[string]string{"main.tf": config})
	if r := rig(t, ours, append(args, "-no-color")...); r.code != 0 {
		t.Fatalf("rig providers lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	theirs := workDir(t, map[string]string{"main.tf": config})
	cmd := exec.Command(tf, append([]string{"-chdir=" + theirs}, args...)...)
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform providers lock: %v\n%s", err, out)
	}
	a, err := os.ReadFile(filepath.Join(ours, getproviders.LockFileName))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(theirs, getproviders.LockFileName))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`maintained automatically by "terraform init"`), []byte(`maintained automatically by "rig init"`), 1)
	if !bytes.Equal(a, b) {
		t.Errorf("lock files differ\nrig:\n%s\nterraform:\n%s", a, b)
	}

	// rig init and terraform init record the same lock too.
	oursInit := workDir(t, map[string]string{"main.tf": config})
	if r := rig(t, oursInit, "init", "-no-color"); r.code != 0 {
		t.Fatalf("rig init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	theirsInit := workDir(t, map[string]string{"main.tf": config})
	cmd = exec.Command(tf, "-chdir="+theirsInit, "init", "-input=false", "-no-color")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "- Installed "+reg.Host+"/acme/fake v1.2.0 (self-signed, key ID "+reg.Key.PrimaryKey.KeyIdString()+")") {
		t.Errorf("terraform init says otherwise than rig:\n%s", out)
	}
	a, _ = os.ReadFile(filepath.Join(oursInit, getproviders.LockFileName))
	b, _ = os.ReadFile(filepath.Join(theirsInit, getproviders.LockFileName))
	b = bytes.Replace(b, []byte(`maintained automatically by "terraform init"`), []byte(`maintained automatically by "rig init"`), 1)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("init lock files differ\nrig:\n%s\nterraform:\n%s", a, b)
	}

	// And rig init in terraform's directory accepts its lock file, and
	// rig providers lock there leaves it byte for byte as it is, header
	// included: the tools may take turns without rewriting each other's.
	before, _ := os.ReadFile(filepath.Join(theirs, getproviders.LockFileName))
	if r := rig(t, theirs, "init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "- Reusing previous version of "+reg.Host+"/acme/fake from the dependency lock file") {
		t.Errorf("rig init with terraform's lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, theirs, append(args, "-no-color")...); r.code != 0 {
		t.Fatalf("rig providers lock in terraform's directory: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	after, _ := os.ReadFile(filepath.Join(theirs, getproviders.LockFileName))
	if !bytes.Equal(before, after) {
		t.Errorf("rig changed terraform's lock file\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestProvidersMirrorRegistry: providers mirror copies the registry's
// packages into a mirror with the network mirror protocol's index files;
// served over HTTPS, that mirror is a network_mirror rig init installs
// from, checking the archive against its hashes.
func TestProvidersMirrorRegistry(t *testing.T) {
	reg, rels := fakeRegistry(t)
	trustRegistries(t, reg, "")
	dir := workDir(t, map[string]string{"main.tf": fakeRegistryConfig(reg.Host)})
	out := t.TempDir()
	cur := getproviders.CurrentPlatform.String()
	r := rig(t, dir, "providers", "mirror", "-no-color", "-platform="+cur, "-platform=windows_amd64", out)
	if r.code != 0 {
		t.Fatalf("providers mirror: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	pdir := filepath.Join(out, reg.Host, "acme", "fake")
	for _, pl := range []string{cur, "windows_amd64"} {
		got, err := os.ReadFile(filepath.Join(pdir, "terraform-provider-fake_1.2.0_"+pl+".zip"))
		if err != nil || !bytes.Equal(got, reg.Zip(rels[1], pl)) {
			t.Errorf("mirrored %s zip differs from the registry's (%v)", pl, err)
		}
	}
	for _, f := range []string{"index.json", "1.2.0.json"} {
		if _, err := os.Stat(filepath.Join(pdir, f)); err != nil {
			t.Errorf("mirror lacks %s: %v", f, err)
		}
	}

	mirror := httptest.NewTLSServer(http.FileServer(http.Dir(out)))
	defer mirror.Close()
	// The registry itself is excluded: only the mirror may serve.
	trustRegistries(t, reg, fmt.Sprintf(`
provider_installation {
  network_mirror {
    url = "%s"
  }
  direct {
    exclude = ["%s/*/*"]
  }
}
`, mirror.URL, reg.Host))
	before := len(reg.Requests())
	fresh := workDir(t, map[string]string{"main.tf": fakeRegistryConfig(reg.Host)})
	r = rig(t, fresh, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Installed "+reg.Host+"/acme/fake v1.2.0 (verified checksum)") {
		t.Errorf("init from the network mirror: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := len(reg.Requests()) - before; n != 0 {
		t.Errorf("init asked the registry %d times", n)
	}
}
