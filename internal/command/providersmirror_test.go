package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/getproviders"
)

// TestProvidersMirror copies the selected version's archives for each
// platform and writes the network mirror protocol's index.json and
// VERSION.json beside them.
func TestProvidersMirror(t *testing.T) {
	mirror := packedMirror(t, []string{"1.0.0", "1.2.0", "2.0.0"}, "linux_amd64", "darwin_arm64")
	dir := workDir(t, map[string]string{"main.tf": fakeConfig})
	out := filepath.Join(t.TempDir(), "out")
	r := rig(t, dir, "providers", "mirror", "-no-color", "-fs-mirror="+mirror, "-platform=linux_amd64", "-platform=darwin_arm64", out)
	want := `- Mirroring example.com/acme/fake...
  - Selected v1.2.0 to meet constraints ~> 1.0
  - Downloading package for linux_amd64...
  - Downloading package for darwin_arm64...
`
	if r.code != 0 || r.stdout != want {
		t.Fatalf("providers mirror: exit %d\n%s\nwant:\n%s\n%s", r.code, r.stdout, want, r.stderr)
	}
	pdir := filepath.Join(out, "example.com", "acme", "fake")
	var hashes []string
	for _, platform := range []string{"linux_amd64", "darwin_arm64"} {
		name := "terraform-provider-fake_1.2.0_" + platform + ".zip"
		got, err := os.ReadFile(filepath.Join(pdir, name))
		if err != nil {
			t.Fatal(err)
		}
		orig, _ := os.ReadFile(filepath.Join(mirror, "example.com", "acme", "fake", name))
		if string(got) != string(orig) {
			t.Errorf("%s is not a copy of the mirror's archive", name)
		}
		h1, err := getproviders.HashZip(filepath.Join(pdir, name))
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, h1)
	}
	index, _ := os.ReadFile(filepath.Join(pdir, "index.json"))
	if diff := cmp.Diff("{\n  \"versions\": {\n    \"1.2.0\": {}\n  }\n}\n", string(index)); diff != "" {
		t.Errorf("index.json (-want +got):\n%s", diff)
	}
	version, _ := os.ReadFile(filepath.Join(pdir, "1.2.0.json"))
	wantVersion := `{
  "archives": {
    "darwin_arm64": {
      "url": "terraform-provider-fake_1.2.0_darwin_arm64.zip",
      "hashes": [
        "` + hashes[1] + `"
      ]
    },
    "linux_amd64": {
      "url": "terraform-provider-fake_1.2.0_linux_amd64.zip",
      "hashes": [
        "` + hashes[0] + `"
      ]
    }
  }
}
`
	if diff := cmp.Diff(wantVersion, string(version)); diff != "" {
		t.Errorf("1.2.0.json (-want +got):\n%s", diff)
	}

	// A locked version is mirrored, and the index lists every version there.
	lock := "provider \"example.com/acme/fake\" {\n  version = \"1.0.0\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, getproviders.LockFileName), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	r = rig(t, dir, "providers", "mirror", "-no-color", "-fs-mirror="+mirror, out)
	if r.code != 0 || !strings.Contains(r.stdout, "  - Selected v1.0.0 to match dependency lock file\n") {
		t.Fatalf("providers mirror with a lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	index, _ = os.ReadFile(filepath.Join(pdir, "index.json"))
	if !strings.Contains(string(index), `"1.0.0": {}`) || !strings.Contains(string(index), `"1.2.0": {}`) {
		t.Errorf("index.json after a second version:\n%s", index)
	}
}

// TestProvidersMirrorErrors covers a missing directory argument and a
// platform the mirror has no package for.
func TestProvidersMirrorErrors(t *testing.T) {
	mirror := packedMirror(t, []string{"1.0.0"}, "linux_amd64")
	dir := workDir(t, map[string]string{"main.tf": fakeConfig})
	r := rig(t, dir, "providers", "mirror", "-no-color", "-fs-mirror="+mirror)
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Wrong number of arguments") {
		t.Errorf("no directory: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "providers", "mirror", "-no-color", "-fs-mirror="+mirror, "-platform=linux_amd64", "-platform=windows_386", t.TempDir())
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Cannot download provider") || !strings.Contains(r.stderr, "windows_386") {
		t.Errorf("missing platform: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProvidersMirrorBuiltIn has nothing to copy for the built-in provider.
func TestProvidersMirrorBuiltIn(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	out := filepath.Join(t.TempDir(), "out")
	r := rig(t, dir, "providers", "mirror", "-no-color", out)
	if r.code != 0 || r.stdout != "" {
		t.Errorf("providers mirror: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProvidersMirrorRandom zips the real random provider's unpacked
// package, and init installs from the result with the same h1: hash.
func TestProvidersMirrorRandom(t *testing.T) {
	mirror := realMirror(t, "random")
	dir := workDir(t, map[string]string{"main.tf": realImportConfig})
	out := t.TempDir()
	r := rig(t, dir, "providers", "mirror", "-no-color", "-fs-mirror="+mirror, out)
	if r.code != 0 || !strings.Contains(r.stdout, "- Mirroring hashicorp/random...\n  - Selected v3.") {
		t.Fatalf("providers mirror: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, dir, "init", "-plugin-dir="+out)
	locks, ds := getproviders.ReadLockFile(filepath.Join(dir, getproviders.LockFileName))
	if ds.HasErrors() || len(locks.Providers) != 1 {
		t.Fatalf("lock file: %v", ds.Err())
	}
	lk := locks.Sorted()[0]
	h1, err := getproviders.HashDir(getproviders.PackageDir(mirror, lk.Provider, lk.Version, getproviders.CurrentPlatform))
	if err != nil || !containsAll(lk.Hashes, []string{h1}) {
		t.Errorf("hashes %v after init from the mirrored archive, want the original package's %s (%v)", lk.Hashes, h1, err)
	}
}
