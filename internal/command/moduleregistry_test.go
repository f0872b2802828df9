package command

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// moduleRegistry is a module registry on loopback TLS serving the
// versions of one module, acme/net/aws, as tar.gz archives under /files/.
type moduleRegistry struct {
	*httptest.Server
	versions []string

	mu            sync.Mutex
	paths         []string // requested, in order
	authorization []string // the Authorization header of each request
}

// netPackage is the module the registry serves: a terraform_data resource
// fed by a nested local module.
var netPackage = map[string]string{
	"main.tf": `
variable "name" {}

module "tag" {
  source = "./modules/tag"
  value  = var.name
}

resource "terraform_data" "server" {
  input = module.tag.tagged
}

output "id" {
  value = terraform_data.server.output
}
`,
	"modules/tag/main.tf": `
variable "value" {}

output "tagged" {
  value = "${var.value}-tagged"
}
`,
}

func newModuleRegistry(t *testing.T, versions ...string) *moduleRegistry {
	t.Helper()
	reg := &moduleRegistry{versions: versions}
	archive := tarGzOf(t, netPackage)
	top := map[string]string{}
	for name, body := range netPackage {
		top["acme-net-3f2a/"+name] = body
	}
	topArchive := tarGzOf(t, top)
	reg.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reg.mu.Lock()
		reg.paths = append(reg.paths, r.URL.Path)
		reg.authorization = append(reg.authorization, r.Header.Get("Authorization"))
		reg.mu.Unlock()
		switch p := r.URL.Path; {
		case p == "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"modules.v1":"/v1/modules/"}`))
		case p == "/v1/modules/acme/net/aws/versions":
			var list []map[string]string
			reg.mu.Lock()
			versions := slices.Clone(reg.versions)
			reg.mu.Unlock()
			for _, v := range versions {
				list = append(list, map[string]string{"version": v})
			}
			json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": list}}})
		case strings.HasPrefix(p, "/v1/modules/acme/net/aws/") && strings.HasSuffix(p, "/download"):
			v := strings.TrimSuffix(strings.TrimPrefix(p, "/v1/modules/acme/net/aws/"), "/download")
			w.Header().Set("X-Terraform-Get", "/files/net-"+v+".tar.gz")
			w.WriteHeader(http.StatusNoContent)
		case strings.HasPrefix(p, "/files/net-") && strings.HasSuffix(p, ".tar.gz"), p == "/download":
			w.Write(archive)
		case p == "/files/top.tar.gz":
			w.Write(topArchive)
		case p == "/get/tag":
			w.Header().Set("X-Terraform-Get", reg.URL+"/files/net-1.0.0.tar.gz//modules/tag")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(reg.Close)
	old := moduleHTTPClient
	moduleHTTPClient = reg.Client()
	t.Cleanup(func() { moduleHTTPClient = old })
	return reg
}

// host is the registry's host:port, as a module source names it.
func (reg *moduleRegistry) host() string { return strings.TrimPrefix(reg.URL, "https://") }

// requests returns the paths requested so far and their Authorization
// headers, and forgets them.
func (reg *moduleRegistry) requests() (paths, authorization []string) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	paths, authorization = reg.paths, reg.authorization
	reg.paths, reg.authorization = nil, nil
	return paths, authorization
}

// certFile writes the registry's certificate, the CA a client must trust,
// to a PEM file and returns its path.
func (reg *moduleRegistry) certFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "ca.pem")
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: reg.Certificate().Raw})
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func tarGzOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(files[n]))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func registryRoot(host, version string) map[string]string {
	return map[string]string{"main.tf": `
module "net" {
  source  = "` + host + `/acme/net/aws"
  version = "` + version + `"
  name    = "web"
}

output "id" {
  value = module.net.id
}
`}
}

// TestRegistryModuleLifecycle: rig init installs the newest version of a
// registry module its constraint allows (with the token the CLI
// configuration gives its host, never printed), plan and apply use it and
// its nested local module, a second init downloads nothing, init -upgrade
// selects a newer version, and a constraint nothing matches is an error
// listing the available versions.
func TestRegistryModuleLifecycle(t *testing.T) {
	const token = "registry-t0ken-42"
	reg := newModuleRegistry(t, "1.0.0", "1.1.0", "2.0.0")
	cfg := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(cfg, []byte(`credentials "`+reg.host()+`" {
  token = "`+token+`"
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_CLI_CONFIG_FILE", cfg)
	dir := workDir(t, registryRoot(reg.host(), "~> 1.0"))

	r := mustRig(t, dir, "init", "-no-color")
	if want := "Downloading " + reg.host() + "/acme/net/aws 1.1.0 for net...\n- net in .terraform/modules/net\n- net.tag in .terraform/modules/net/modules/tag\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("init output:\n%s\nwant it to contain:\n%s", r.stdout, want)
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, token) {
			t.Errorf("init printed the token:\n%s", out)
		}
	}
	paths, auth := reg.requests()
	for i, p := range paths {
		if auth[i] != "Bearer "+token {
			t.Errorf("request %s had Authorization %q, want the token", p, auth[i])
		}
	}
	manifest, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	wantManifest := `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"net","Source":"` + reg.host() + `/acme/net/aws","Version":"1.1.0","Dir":".terraform/modules/net"},` +
		`{"Key":"net.tag","Source":"./modules/tag","Dir":".terraform/modules/net/modules/tag"}]}`
	if string(manifest) != wantManifest {
		t.Errorf("modules.json:\n%s\nwant:\n%s", manifest, wantManifest)
	}

	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 || !strings.Contains(r.stdout, "module.net.terraform_data.server will be created") {
		t.Fatalf("rig plan: exit %d, want 2 with module.net.terraform_data.server\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if got := stateAddresses(t, dir); !slices.Equal(got, []string{"module.net.terraform_data.server"}) {
		t.Errorf("state holds %v", got)
	}
	if r := rig(t, dir, "output", "-raw", "id"); r.code != 0 || r.stdout == "" {
		t.Errorf("rig output id: exit %d %q %s", r.code, r.stdout, r.stderr)
	}

	mustRig(t, dir, "init", "-no-color")
	paths, _ = reg.requests()
	if len(paths) != 0 {
		t.Errorf("a second init sent %v, want nothing (the installed version still matches)", paths)
	}

	reg.mu.Lock()
	reg.versions = append(reg.versions, "1.2.0")
	reg.mu.Unlock()
	r = mustRig(t, dir, "init", "-upgrade", "-no-color")
	if want := "Upgrading modules...\nDownloading " + reg.host() + "/acme/net/aws 1.2.0 for net...\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("init -upgrade output:\n%s\nwant it to contain:\n%s", r.stdout, want)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Errorf("rig plan after the upgrade to an identical package: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}

	writeFile(t, dir, "main.tf", registryRoot(reg.host(), "~> 3.0")["main.tf"])
	r = rig(t, dir, "init", "-no-color")
	stderr := strings.Join(strings.Fields(r.stderr), " ")
	if r.code != 1 || !strings.Contains(stderr, "Unresolvable module version constraint") ||
		!strings.Contains(stderr, "The available versions are 2.0.0, 1.2.0, 1.1.0, 1.0.0.") || !strings.Contains(stderr, "on main.tf line 3") {
		t.Errorf("init with an unmatched constraint: exit %d\n%s", r.code, r.stderr)
	}
}

// TestTerraformInitRegistryModule: terraform init against the same local
// TLS registry and HTTP sources (an archive with a subdirectory, the
// archive parameter, an X-Terraform-Get answer, a subdirectory pattern)
// writes the modules.json rig
// writes, byte for byte, and rig plans and applies in the directory
// terraform initialized.
func TestTerraformInitRegistryModule(t *testing.T) {
	reg := newModuleRegistry(t, "1.0.0", "1.1.0", "2.0.0")
	cfg := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, filepath.Dir(cfg), filepath.Base(cfg), `credentials "`+reg.host()+`" {
  token = "interop-token"
}
`)
	files := registryRoot(reg.host(), "~> 1.0")
	files["http.tf"] = `
module "tag_archive" {
  source = "https://` + reg.host() + `/files/net-1.0.0.tar.gz//modules/tag"
  value  = "a"
}

module "tag_param" {
  source = "https://` + reg.host() + `/download//modules/tag?archive=tar.gz"
  value  = "b"
}

module "tag_get" {
  source = "https://` + reg.host() + `/get/tag"
  value  = "c"
}

module "tag_glob" {
  source = "https://` + reg.host() + `/files/top.tar.gz//*/modules/tag"
  value  = "d"
}
`
	tfDir, rigDir := workDir(t, files), workDir(t, files)
	terraform := terraformIn(t, tfDir, "SSL_CERT_FILE="+reg.certFile(t), "TF_CLI_CONFIG_FILE="+cfg)
	if r := terraform("init", "-no-color", "-backend=false"); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Setenv("TF_CLI_CONFIG_FILE", cfg)
	mustRig(t, rigDir, "init", "-no-color")
	read := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "modules.json"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if diff := cmp.Diff(read(tfDir), read(rigDir)); diff != "" {
		t.Errorf("modules.json (-terraform +rig):\n%s", diff)
	}
	for _, f := range []string{"main.tf", "modules/tag/main.tf"} {
		a, _ := os.ReadFile(filepath.Join(tfDir, ".terraform/modules/net", f))
		b, _ := os.ReadFile(filepath.Join(rigDir, ".terraform/modules/net", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf(".terraform/modules/net/%s differs: terraform %q, rig %q", f, a, b)
		}
	}
	reg.requests()
	if r := rig(t, tfDir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 {
		t.Fatalf("rig plan in the directory terraform initialized: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, tfDir, "apply", "-auto-approve", "-no-color", "-input=false")
	mustRig(t, tfDir, "init", "-no-color")
	if paths, _ := reg.requests(); len(paths) != 0 {
		t.Errorf("rig init in the directory terraform initialized sent %v, want nothing", paths)
	}
	if r := terraform("plan", "-detailed-exitcode", "-no-color"); r.code != 0 {
		t.Errorf("terraform plan after rig apply: exit %d, want 0 (no changes)\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestOpenTofuRegistryModuleManifest: in a directory tofu initialized, a
// registry module without a host is recorded under registry.opentofu.org;
// rig plans with it and rig init keeps it, without contacting a registry.
func TestOpenTofuRegistryModuleManifest(t *testing.T) {
	files := map[string]string{
		"main.tf": `
module "net" {
  source  = "acme/net/aws"
  version = "~> 1.0"
  name    = "web"
}
`,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"net","Source":"registry.opentofu.org/acme/net/aws","Version":"1.1.0","Dir":".terraform/modules/net"},` +
			`{"Key":"net.tag","Source":"./modules/tag","Dir":".terraform/modules/net/modules/tag"}]}`,
	}
	for name, body := range netPackage {
		files[".terraform/modules/net/"+name] = body
	}
	dir := workDir(t, files)
	old := moduleHTTPClient
	moduleHTTPClient = &http.Client{Transport: refuseTransport{t}}
	t.Cleanup(func() { moduleHTTPClient = old })
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 || !strings.Contains(r.stdout, "module.net.terraform_data.server will be created") {
		t.Fatalf("rig plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "init", "-no-color")
	manifest, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "modules.json"))
	if err != nil || string(manifest) != files[".terraform/modules/modules.json"] {
		t.Errorf("modules.json after rig init:\n%s (%v)\nwant it unchanged", manifest, err)
	}
}

// refuseTransport fails the test on any request.
type refuseTransport struct{ t *testing.T }

func (r refuseTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.t.Errorf("unexpected request to %s", req.URL)
	return nil, http.ErrNotSupported
}

// TestInitCredentialsWarning: a credentials block init cannot use is a
// warning naming the file and line, and init goes on.
func TestInitCredentialsWarning(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, filepath.Dir(cfg), filepath.Base(cfg), "credentials \"app.example.com\" {\n  token = 42\n}\n")
	t.Setenv("TF_CLI_CONFIG_FILE", cfg)
	dir := workDir(t, map[string]string{
		"main.tf":   `module "a" { source = "./a" }`,
		"a/main.tf": "",
	})
	r := mustRig(t, dir, "init", "-no-color")
	out := strings.Join(strings.Fields(r.stdout+r.stderr), " ")
	want := "Warning: Invalid credentials block " + cfg + `:2: The token for host "app.example.com" must be a string.`
	if !strings.Contains(out, want) {
		t.Errorf("init output:\n%s%s\nwant it to contain %q", r.stdout, r.stderr, want)
	}
	if n := strings.Count(out, "Invalid credentials block"); n != 1 {
		t.Errorf("the warning is shown %d times, want once:\n%s%s", n, r.stdout, r.stderr)
	}
}
