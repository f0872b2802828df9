package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// openTofuFixtures are files OpenTofu 1.10 wrote (see its README), kept
// beside the repository.
var openTofuFixtures = filepath.Join("..", "..", "..", "shared", "fixtures", "opentofu-1.10")

// tofuFixture returns the path of a file under openTofuFixtures, or skips.
func tofuFixture(t *testing.T, parts ...string) string {
	t.Helper()
	path := filepath.Join(append([]string{openTofuFixtures}, parts...)...)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no OpenTofu fixture %s: %v", path, err)
	}
	return path
}

func readFixture(t *testing.T, parts ...string) string {
	t.Helper()
	b, err := os.ReadFile(tofuFixture(t, parts...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const hostsTestConfig = `
resource "test_thing" "a" {
  key = "a"
}
`

// TestProvidersUnderOpenTofuHost: where the lock file names
// registry.opentofu.org/hashicorp/test, as tofu init writes it, rig uses the
// provider under that address and records it so in the state.
func TestProvidersUnderOpenTofuHost(t *testing.T) {
	withTestProvider(t, providertest.New())
	dir := workDir(t, map[string]string{
		"main.tf": hostsTestConfig,
		getproviders.LockFileName: `provider "registry.opentofu.org/hashicorp/test" {
  version = "1.0.0"
}
`,
	})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ := readStateFile(t, dir)
	if len(sf.Resources) != 1 || sf.Resources[0].Provider != `provider["registry.opentofu.org/hashicorp/test"]` {
		t.Fatalf("state resources = %+v, want test_thing.a under registry.opentofu.org", sf.Resources)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Errorf("plan after apply: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestStateUnderOtherHost: a state recording the provider under
// registry.opentofu.org, while the working directory uses
// registry.terraform.io, plans no replacement, deletes a resource gone from
// the configuration through the same provider, and is written back under
// the directory's host.
func TestStateUnderOtherHost(t *testing.T) {
	p := providertest.New()
	withTestProvider(t, p)
	dir := workDir(t, map[string]string{"main.tf": hostsTestConfig + "resource \"test_thing\" \"gone\" {\n  key = \"gone\"\n}\n"})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	_, raw := readStateFile(t, dir)
	writeFile(t, dir, "terraform.tfstate", strings.ReplaceAll(string(raw), "registry.terraform.io/hashicorp/test", "registry.opentofu.org/hashicorp/test"))
	writeFile(t, dir, "main.tf", hostsTestConfig)

	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 0 || !strings.Contains(r.stdout, "Plan: 0 to add, 0 to change, 1 to destroy.") {
		t.Fatalf("plan: exit %d, want only test_thing.gone destroyed\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ := readStateFile(t, dir)
	if len(sf.Resources) != 1 || sf.Resources[0].Name != "a" || sf.Resources[0].Provider != `provider["registry.terraform.io/hashicorp/test"]` {
		t.Errorf("state resources = %+v, want test_thing.a under registry.terraform.io", sf.Resources)
	}
}

// TestOpenTofuWorkdirLockfile runs rig, without rig init, in the working
// directory of the workdir-lockfile fixture: OpenTofu's lock file and state
// name registry.opentofu.org/hashicorp/random, and the package is where
// tofu init installs it. The real random provider stands in for the one
// OpenTofu installed, so the lock file records its version and hash.
func TestOpenTofuWorkdirLockfile(t *testing.T) {
	mainTF := readFixture(t, "workdir-lockfile", "main.tf")
	stateJSON := readFixture(t, "workdir-lockfile", "terraform.tfstate")
	lockHCL := readFixture(t, "workdir-lockfile", getproviders.LockFileName)
	mirror := realMirror(t, "random")

	random := addrs.NewDefaultProvider("random")
	vs, err := getproviders.FilesystemMirror{Dir: mirror}.AvailableVersions(t.Context(), random, getproviders.CurrentPlatform)
	if err != nil || len(vs) == 0 {
		t.Fatalf("mirror %s: %v %v", mirror, vs, err)
	}
	src := getproviders.PackageDir(mirror, random, vs[0], getproviders.CurrentPlatform)
	h1, err := getproviders.HashDir(src)
	if err != nil {
		t.Fatal(err)
	}
	lockHCL = strings.Replace(lockHCL, `"3.7.2"`, `"`+vs[0].String()+`"`, 1)
	lockHCL = regexp.MustCompile(`"h1:[^"]*"`).ReplaceAllString(lockHCL, `"`+h1+`"`)
	dir := workDir(t, map[string]string{"main.tf": mainTF, "terraform.tfstate": stateJSON, getproviders.LockFileName: lockHCL})
	tofuRandom := random.WithHostname(addrs.OpenTofuRegistryHost)
	installed := getproviders.PackageDir(filepath.Join(dir, ".terraform", "providers"), tofuRandom, vs[0], getproviders.CurrentPlatform)
	exe, ok := getproviders.FindExecutable(src, random)
	if !ok {
		t.Fatalf("no executable in %s", src)
	}
	linkOrCopy(t, exe, filepath.Join(installed, filepath.Base(exe)))

	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("plan on OpenTofu's state: exit %d, want 0 (no changes)\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A new resource is recorded under the host the directory uses.
	writeFile(t, dir, "main.tf", mainTF+"\nresource \"random_id\" \"n\" {\n  byte_length = 4\n}\n")
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 || !strings.Contains(r.stdout, "1 added, 0 changed, 0 destroyed") {
		t.Fatalf("apply: exit %d, want one resource added\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ := readStateFile(t, dir)
	for _, rs := range sf.Resources {
		if rs.Provider != `provider["registry.opentofu.org/hashicorp/random"]` {
			t.Errorf("%s.%s recorded with %s, want registry.opentofu.org", rs.Type, rs.Name, rs.Provider)
		}
	}
	// rig init keeps OpenTofu's selection and package.
	r := rig(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	if r.code != 0 || !strings.Contains(r.stdout, "Using previously-installed hashicorp/random v"+vs[0].String()) {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, getproviders.LockFileName)); string(got) != lockHCL {
		t.Errorf("init rewrote the lock file:\n%s\nwant:\n%s", got, lockHCL)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "providers", addrs.DefaultProviderRegistryHost)); !os.IsNotExist(err) {
		t.Errorf("init installed under %s too: %v", addrs.DefaultProviderRegistryHost, err)
	}
}
