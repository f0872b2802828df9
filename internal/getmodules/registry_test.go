package getmodules

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/diag"
)

// netModule is a small module tree with a nested local module, as a
// registry package holds it.
var netModule = map[string]string{
	"main.tf":             "module \"sub\" {\n  source = \"./modules/sub\"\n}\noutput \"id\" { value = module.sub.id }\n",
	"modules/sub/main.tf": "resource \"terraform_data\" \"x\" {}\noutput \"id\" { value = terraform_data.x.id }\n",
}

// downloads counts the requests for package archives among rs.
func downloads(rs []request) int {
	n := 0
	for _, r := range rs {
		if strings.HasPrefix(r.Path, "/files/") {
			n++
		}
	}
	return n
}

func TestInstallRegistryModule(t *testing.T) {
	srv := newServer(t)
	host := srv.Host()
	srv.Versions["acme/net/aws"] = []string{"1.0.0", "1.1.0", "1.2.0", "2.0.0", "1.3.0-beta1"}
	for _, v := range []string{"1.2.0", "2.0.0", "1.3.0"} {
		srv.Locations["acme/net/aws/"+v] = "/files/net-" + v + ".tar.gz"
		srv.Files["/files/net-"+v+".tar.gz"] = tarGz(t, files(netModule))
	}
	wd := t.TempDir()
	writeMain := func(version string) {
		writeFiles(t, wd, map[string]string{"main.tf": "module \"net\" {\n  source  = \"" + host + "/acme/net/aws\"\n  version = \"" + version + "\"\n}\n"})
	}
	writeMain("~> 1.1")
	inst := Installer{WorkDir: wd, HTTPClient: srv.Client()}

	m, out := mustInstall(t, inst)
	want := []Record{
		{Key: "", Dir: "."},
		{Key: "net", Source: host + "/acme/net/aws", Version: "1.2.0", Dir: ".terraform/modules/net"},
		{Key: "net.sub", Source: "./modules/sub", Dir: ".terraform/modules/net/modules/sub"},
	}
	if diff := cmp.Diff(want, m.Records); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	wantOut := "Downloading " + host + "/acme/net/aws 1.2.0 for net...\n- net in .terraform/modules/net\n- net.sub in .terraform/modules/net/modules/sub\n"
	if out != wantOut {
		t.Errorf("output:\n%s\nwant:\n%s", out, wantOut)
	}
	if b, err := os.ReadFile(filepath.Join(wd, ".terraform/modules/net/modules/sub/main.tf")); err != nil || string(b) != netModule["modules/sub/main.tf"] {
		t.Errorf("installed modules/sub/main.tf = %q, %v", b, err)
	}
	if n := downloads(srv.Requests()); n != 1 {
		t.Errorf("%d downloads, want 1", n)
	}

	t.Run("installed version still allowed: nothing downloaded", func(t *testing.T) {
		srv.Locations["acme/net/aws/1.3.0"] = "/files/net-1.3.0.tar.gz"
		srv.Versions["acme/net/aws"] = append(srv.Versions["acme/net/aws"], "1.3.0")
		m, out := mustInstall(t, inst)
		if diff := cmp.Diff(want, m.Records); diff != "" {
			t.Errorf("manifest (-want +got):\n%s", diff)
		}
		if rs := srv.Requests(); len(rs) != 0 || out != "" {
			t.Errorf("requests %v, output %q; want none", rs, out)
		}
	})
	t.Run("upgrade selects the newest allowed version", func(t *testing.T) {
		up := inst
		up.Upgrade = true
		m, _ := mustInstall(t, up)
		if r, _ := m.Record("net"); r.Version != "1.3.0" {
			t.Errorf("version %q, want 1.3.0", r.Version)
		}
		if n := downloads(srv.Requests()); n != 1 {
			t.Errorf("%d downloads, want 1", n)
		}
	})
	t.Run("a changed constraint reselects", func(t *testing.T) {
		writeMain("2.0.0")
		m, _ := mustInstall(t, inst)
		if r, _ := m.Record("net"); r.Version != "2.0.0" || r.Dir != ".terraform/modules/net" {
			t.Errorf("record %+v, want version 2.0.0 in .terraform/modules/net", r)
		}
	})
	t.Run("an exact prerelease", func(t *testing.T) {
		srv.Locations["acme/net/aws/1.3.0-beta1"] = "/files/net-1.2.0.tar.gz"
		writeMain("1.3.0-beta1")
		m, _ := mustInstall(t, inst)
		if r, _ := m.Record("net"); r.Version != "1.3.0-beta1" {
			t.Errorf("version %q, want 1.3.0-beta1", r.Version)
		}
	})
}

func TestInstallRegistryLocations(t *testing.T) {
	tests := []struct {
		name     string
		source   string // after HOST/
		location string
		json     bool
		direct   bool
		body     string            // with the X-Terraform-Get header and status 200
		serve    map[string][]byte // path → content
		wantDir  string
		wantFile string // a file that must exist under the working directory
	}{
		{
			name:     "relative to the download URL",
			source:   "acme/net/aws",
			location: "./net.zip",
			serve:    map[string][]byte{"/v1/modules/acme/net/aws/1.0.0/net.zip": nil},
			wantDir:  ".terraform/modules/m",
			wantFile: ".terraform/modules/m/modules/sub/main.tf",
		},
		{
			name:     "JSON location",
			source:   "acme/net/aws",
			location: "/files/net.tgz",
			json:     true,
			serve:    map[string][]byte{"/files/net.tgz": nil},
			wantDir:  ".terraform/modules/m",
			wantFile: ".terraform/modules/m/main.tf",
		},
		{
			name:     "header with status 200 and a body that is not JSON",
			source:   "acme/net/aws",
			location: "/files/net.tgz",
			body:     "<html>moved</html>",
			serve:    map[string][]byte{"/files/net.tgz": nil},
			wantDir:  ".terraform/modules/m",
			wantFile: ".terraform/modules/m/main.tf",
		},
		{
			name:     "direct zip location, recognised by its content",
			source:   "acme/net/aws",
			location: "package",
			direct:   true,
			serve:    map[string][]byte{"/v1/modules/acme/net/aws/1.0.0/package.zip": nil},
			wantDir:  ".terraform/modules/m",
			wantFile: ".terraform/modules/m/modules/sub/main.tf",
		},
		{
			name:     "direct tar.gz location with the address's subdirectory",
			source:   "acme/net/aws//modules/sub",
			location: "/pkg/net",
			direct:   true,
			serve:    map[string][]byte{"/pkg/net": nil},
			wantDir:  ".terraform/modules/m/modules/sub",
			wantFile: ".terraform/modules/m/main.tf",
		},
		{
			name:     "subdirectories of the address and of the location",
			source:   "acme/net/aws//modules/sub",
			location: "/files/pkg.zip//inner",
			serve:    map[string][]byte{"/files/pkg.zip": nil},
			wantDir:  ".terraform/modules/m/inner/modules/sub",
			wantFile: ".terraform/modules/m/inner/main.tf",
		},
		{
			name:     "absolute URL with archive parameter",
			source:   "acme/net/aws",
			location: "HOST/files/download?archive=tar.gz",
			serve:    map[string][]byte{"/files/download": nil},
			wantDir:  ".terraform/modules/m",
			wantFile: ".terraform/modules/m/main.tf",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.Versions["acme/net/aws"] = []string{"1.0.0"}
			srv.Locations["acme/net/aws/1.0.0"] = strings.ReplaceAll(tt.location, "HOST", srv.URL)
			srv.JSONLocation = tt.json
			srv.Direct = tt.direct
			srv.HeaderWithBody = tt.body
			for p := range tt.serve {
				tree := netModule
				if strings.Contains(tt.location, "//inner") {
					tree = map[string]string{}
					for name, body := range netModule {
						tree["inner/"+name] = body
					}
				}
				if strings.HasSuffix(p, ".zip") {
					srv.Files[strings.TrimSuffix(p, ".zip")] = zipOf(t, files(tree)) // for direct locations
					srv.Files[p] = zipOf(t, files(tree))
				} else {
					srv.Files[p] = tarGz(t, files(tree))
				}
			}
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": `module "m" { source = "` + srv.Host() + "/" + tt.source + `" }`})
			m, _ := mustInstall(t, Installer{WorkDir: wd, HTTPClient: srv.Client()})
			if r, _ := m.Record("m"); r.Dir != tt.wantDir || r.Version != "1.0.0" {
				t.Errorf("record %+v, want version 1.0.0 in %s", r, tt.wantDir)
			}
			if _, err := os.Stat(filepath.Join(wd, tt.wantFile)); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestInstallRegistryDiagnostics(t *testing.T) {
	srv := newServer(t)
	host := srv.Host()
	srv.Versions["acme/net/aws"] = []string{"1.0.0", "1.2.0", "0.9.0"}
	srv.Versions["acme/empty/aws"] = nil
	srv.Versions["acme/gone/aws"] = []string{"1.0.0"}
	srv.Locations["acme/odd/aws/1.0.0"] = "s3::https://s3.amazonaws.com/b/x.zip"
	srv.Versions["acme/odd/aws"] = []string{"1.0.0"}
	srv.Raw["/v1/modules/acme/bad/aws/versions"] = rawAnswer{200, "{not json"}
	srv.Raw["/v1/modules/acme/broken/aws/versions"] = rawAnswer{500, "oops"}
	closed := newServer(t)
	closedHost := closed.Host()
	closed.Close()

	tests := []struct {
		name, source, version string
		summary, detail       string
	}{
		{name: "no version matches", source: host + "/acme/net/aws", version: ">= 2.0",
			summary: "Unresolvable module version constraint",
			detail:  `There is no available version of module ` + host + `/acme/net/aws (module "m", main.tf:1) which matches the given version constraint ">= 2.0". The available versions are 1.2.0, 1.0.0, 0.9.0.`},
		{name: "no versions", source: host + "/acme/empty/aws",
			summary: "Module has no versions", detail: "has no versions available on " + host},
		{name: "unknown module", source: host + "/acme/nope/aws",
			summary: "Module not found", detail: "The module registry at " + host + " has no module " + host + "/acme/nope/aws"},
		{name: "bad JSON", source: host + "/acme/bad/aws",
			summary: "Invalid response from remote module registry", detail: "from " + host + ": GET https://" + host + "/v1/modules/acme/bad/aws/versions: invalid JSON"},
		{name: "server error", source: host + "/acme/broken/aws",
			summary: "Error accessing remote module registry", detail: "500 Internal Server Error"},
		{name: "unreachable", source: closedHost + "/acme/net/aws",
			summary: "Error accessing remote module registry", detail: `Failed to retrieve the available versions of module ` + closedHost + `/acme/net/aws (module "m", main.tf:1) from ` + closedHost + ": service discovery:"},
		{name: "version without location", source: host + "/acme/gone/aws",
			summary: "Module not found", detail: "acme/gone/aws/1.0.0/download: 404 Not Found"},
		{name: "location of an unsupported kind", source: host + "/acme/odd/aws",
			summary: "Invalid response from remote module registry", detail: `named "s3::https://s3.amazonaws.com/b/x.zip" as the location of module`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			version := ""
			if tt.version != "" {
				version = `version = "` + tt.version + `"`
			}
			writeFiles(t, wd, map[string]string{"main.tf": "module \"m\" {\n  source = \"" + tt.source + "\"\n" + version + "\n}\n"})
			m, ds, _ := install(t, Installer{WorkDir: wd, HTTPClient: srv.Client()})
			if len(ds) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds.Err())
			}
			d := ds[0]
			if d.Severity != diag.Error || d.Summary != tt.summary || !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("got %s %q: %q\nwant error %q with detail containing %q", d.Severity, d.Summary, d.Detail, tt.summary, tt.detail)
			}
			wantLine := 2 // the source argument
			if d.Subject == nil || d.Subject.Start.Line != wantLine || d.Subject.Filename != filepath.Join(wd, "main.tf") {
				t.Errorf("subject %v, want main.tf line %d", d.Subject, wantLine)
			}
			if _, ok := m.Record("m"); ok {
				t.Errorf("the manifest records the module that failed")
			}
		})
	}
}

func TestInstallRegistryDefaultHost(t *testing.T) {
	// A module recorded under OpenTofu's registry keeps that host, and is
	// not fetched again: no request may leave the machine.
	wd := t.TempDir()
	writeFiles(t, wd, map[string]string{
		"main.tf":                           "module \"consul\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"~> 0.1\"\n}\n",
		".terraform/modules/consul/main.tf": "",
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"consul","Source":"registry.opentofu.org/hashicorp/consul/aws","Version":"0.1.2","Dir":".terraform/modules/consul"}]}`,
	})
	m, out := mustInstall(t, Installer{WorkDir: wd, HTTPClient: &http.Client{Transport: noNetwork{t}}})
	want := Record{Key: "consul", Source: "registry.opentofu.org/hashicorp/consul/aws", Version: "0.1.2", Dir: ".terraform/modules/consul"}
	if r, _ := m.Record("consul"); r != want || out != "" {
		t.Errorf("record %+v, output %q; want %+v and no output", r, out, want)
	}
}

// noNetwork fails the test on any request.
type noNetwork struct{ t *testing.T }

func (n noNetwork) RoundTrip(r *http.Request) (*http.Response, error) {
	n.t.Errorf("unexpected request %s %s", r.Method, r.URL)
	return nil, http.ErrNotSupported
}

// publicRegistryClient sends every request, whatever its host, to srv,
// so that the default registry hosts can be tested on loopback.
func publicRegistryClient(t *testing.T, srv *server) *http.Client {
	t.Helper()
	c := srv.Client()
	tr := c.Transport.(*http.Transport).Clone()
	tr.TLSClientConfig.ServerName = "example.com" // a name the test certificate holds
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}
	c.Transport = tr
	return c
}

func TestInstallRegistryHostChoice(t *testing.T) {
	srv := newServer(t)
	srv.Versions["hashicorp/consul/aws"] = []string{"0.1.0"}
	srv.Locations["hashicorp/consul/aws/0.1.0"] = "/files/consul.zip"
	srv.Files["/files/consul.zip"] = zipOf(t, []entry{{Name: "main.tf"}})
	tests := []struct {
		name        string
		defaultHost string
		manifest    string // an earlier manifest recording another module
		want        string
	}{
		{name: "Terraform's registry by default", want: "registry.terraform.io/hashicorp/consul/aws"},
		{name: "the installer's default", defaultHost: OpenTofuRegistryHost, want: "registry.opentofu.org/hashicorp/consul/aws"},
		{name: "the host the manifest records other modules under", manifest: "registry.opentofu.org/acme/other/aws",
			want: "registry.opentofu.org/hashicorp/consul/aws"},
		{name: "the manifest before the installer's default", defaultHost: OpenTofuRegistryHost, manifest: "registry.terraform.io/acme/other/aws",
			want: "registry.terraform.io/hashicorp/consul/aws"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": `module "consul" { source = "hashicorp/consul/aws" }`})
			if tt.manifest != "" {
				writeFiles(t, wd, map[string]string{".terraform/modules/modules.json": `{"Modules":[{"Key":"other","Source":"` + tt.manifest + `","Version":"1.0.0","Dir":".terraform/modules/other"}]}`})
			}
			m, _ := mustInstall(t, Installer{WorkDir: wd, HTTPClient: publicRegistryClient(t, srv), DefaultRegistryHost: tt.defaultHost})
			if r, _ := m.Record("consul"); r.Source != tt.want || r.Version != "0.1.0" {
				t.Errorf("record %+v, want source %s at 0.1.0", r, tt.want)
			}
		})
	}
}
