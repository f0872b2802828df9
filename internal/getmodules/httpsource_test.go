package getmodules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/diag"
)

func TestInstallHTTPSources(t *testing.T) {
	nested := map[string]string{}
	for name, body := range netModule {
		nested["pkg/"+name] = body
	}
	tests := []struct {
		name   string
		source string // URL on the server, HOST replaced by its address
		setup  func(t *testing.T, s *server)
		// wantDir is the module's directory; wantFile a file under it.
		wantDir, wantFile string
	}{
		{
			name:    "zip",
			source:  "https://HOST/files/net.zip",
			setup:   func(t *testing.T, s *server) { s.Files["/files/net.zip"] = zipOf(t, files(netModule)) },
			wantDir: ".terraform/modules/m", wantFile: "modules/sub/main.tf",
		},
		{
			name:    "tar.gz with subdir",
			source:  "https://HOST/files/net.tar.gz//pkg/modules/sub",
			setup:   func(t *testing.T, s *server) { s.Files["/files/net.tar.gz"] = tarGz(t, files(nested)) },
			wantDir: ".terraform/modules/m/pkg/modules/sub", wantFile: "main.tf",
		},
		{
			name:    "archive parameter",
			source:  "https://HOST/download?archive=zip&id=7",
			setup:   func(t *testing.T, s *server) { s.Files["/download"] = zipOf(t, files(netModule)) },
			wantDir: ".terraform/modules/m", wantFile: "main.tf",
		},
		{
			name:    "tgz with subdir before the query",
			source:  "https://HOST/files/net//pkg?archive=tgz",
			setup:   func(t *testing.T, s *server) { s.Files["/files/net"] = tarGz(t, files(nested)) },
			wantDir: ".terraform/modules/m/pkg", wantFile: "modules/sub/main.tf",
		},
		{
			name:   "the only top directory of an archive",
			source: "https://HOST/archive/v1.tar.gz//*",
			setup: func(t *testing.T, s *server) {
				top := map[string]string{}
				for name, body := range netModule {
					top["acme-net-3f2a/"+name] = body
				}
				s.Files["/archive/v1.tar.gz"] = tarGz(t, files(top))
			},
			wantDir: ".terraform/modules/m/acme-net-3f2a", wantFile: "modules/sub/main.tf",
		},
		{
			name:   "X-Terraform-Get relative",
			source: "https://HOST/modules/net",
			setup: func(t *testing.T, s *server) {
				s.TerraformGet["/modules/net"] = "./net/1.0.0.tar.gz"
				s.Files["/modules/net/1.0.0.tar.gz"] = tarGz(t, files(netModule))
			},
			wantDir: ".terraform/modules/m", wantFile: "modules/sub/main.tf",
		},
		{
			name:   "X-Terraform-Get with a subdirectory",
			source: "https://HOST/modules/net",
			setup: func(t *testing.T, s *server) {
				s.TerraformGet["/modules/net"] = "/files/all.zip//pkg"
				s.Files["/files/all.zip"] = zipOf(t, files(nested))
			},
			wantDir: ".terraform/modules/m", wantFile: "modules/sub/main.tf",
		},
		{
			name:   "terraform-get meta tag",
			source: "https://HOST/page",
			setup: func(t *testing.T, s *server) {
				s.Files["/page"] = []byte(`<html><head><meta name="terraform-get" content="/files/net.zip?x=1&amp;y=2"></head></html>`)
				s.Files["/files/net.zip"] = zipOf(t, files(netModule))
			},
			wantDir: ".terraform/modules/m", wantFile: "main.tf",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			tt.setup(t, srv)
			source := strings.ReplaceAll(tt.source, "HOST", srv.Host())
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": `module "m" { source = "` + source + `" }`})
			inst := Installer{WorkDir: wd, HTTPClient: srv.Client()}
			m, out := mustInstall(t, inst)
			src, _ := ParseSource(source)
			r, _ := m.Record("m")
			if r.Dir != tt.wantDir || r.Source != src.String() || r.Version != "" {
				t.Errorf("record %+v, want source %q in %s", r, src, tt.wantDir)
			}
			if !strings.HasPrefix(out, "Downloading "+src.Package().String()+" for m...\n") {
				t.Errorf("output %q does not start with the download of %s", out, src.Package())
			}
			if _, err := os.Stat(filepath.Join(wd, tt.wantDir, tt.wantFile)); err != nil {
				t.Error(err)
			}
			if strings.Contains(tt.source, "/modules/net") || strings.Contains(tt.source, "/page") {
				var asked bool
				for _, r := range srv.Requests() {
					asked = asked || strings.Contains(r.Path, "terraform-get=1")
				}
				if !asked {
					t.Errorf("the URL was not asked with terraform-get=1")
				}
			}
			srv.Requests()
			if _, out := mustInstall(t, inst); out != "" || len(srv.Requests()) != 0 {
				t.Errorf("second install printed %q or sent requests", out)
			}
		})
	}
}

func TestInstallHTTPDiagnostics(t *testing.T) {
	srv := newServer(t)
	srv.Files["/files/corrupt.zip"] = []byte("PK\x03\x04 this is not a zip archive")
	srv.Files["/files/corrupt.tar.gz"] = []byte("\x1f\x8b\x08 truncated")
	srv.Files["/files/page"] = []byte("<html>no meta here</html>")
	srv.Files["/files/net.zip"] = zipOf(t, files(netModule))
	srv.TerraformGet["/loop"] = "/loop"
	srv.Files["/files/two.zip"] = zipOf(t, []entry{{Name: "a/main.tf"}, {Name: "b/main.tf"}})
	tests := []struct {
		name, source    string
		summary, detail string
	}{
		{"corrupt zip", "/files/corrupt.zip", "Invalid module archive", "invalid archive: zip:"},
		{"corrupt tar.gz", "/files/corrupt.tar.gz", "Invalid module archive", "invalid archive:"},
		{"missing archive", "/files/none.zip", "Failed to download module", "/files/none.zip: 404 Not Found"},
		{"page without a source", "/files/page", "Failed to download module", "names no module source"},
		{"redirection loop", "/loop", "Failed to download module", "more than 5 X-Terraform-Get redirections"},
		{"missing subdirectory", "/files/net.zip//nope", "Unreadable module directory", `the package has no subdirectory "nope"`},
		{"ambiguous subdirectory pattern", "/files/two.zip//*", "Unreadable module directory", `The subdirectory "*" of module "m" at main.tf:1 could not be found in its package: it matches 2 paths, not one.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": "module \"m\" {\n  source = \"" + srv.URL + tt.source + "\"\n}\n"})
			m, ds, _ := install(t, Installer{WorkDir: wd, HTTPClient: srv.Client()})
			if len(ds) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds.Err())
			}
			d := ds[0]
			if d.Severity != diag.Error || d.Summary != tt.summary || !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("got %s %q: %q\nwant error %q with detail containing %q", d.Severity, d.Summary, d.Detail, tt.summary, tt.detail)
			}
			if d.Subject == nil || d.Subject.Start.Line != 2 {
				t.Errorf("subject %v, want the source argument on line 2", d.Subject)
			}
			if _, ok := m.Record("m"); ok {
				t.Errorf("the manifest records the module that failed")
			}
			if tt.summary != "Unreadable module directory" {
				if _, err := os.Stat(filepath.Join(wd, ".terraform/modules/m")); !os.IsNotExist(err) {
					t.Errorf(".terraform/modules/m is left behind (%v)", err)
				}
			}
		})
	}
}
