package getmodules

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestInstallRegistryRetriesAndTimeout: RegistryRetries tries a registry
// request that failed to connect, or was answered 429 or 5xx, again, and
// RegistryTimeout bounds each try (TF_REGISTRY_DISCOVERY_RETRY and
// TF_REGISTRY_CLIENT_TIMEOUT).
func TestInstallRegistryRetriesAndTimeout(t *testing.T) {
	tests := []struct {
		name     string
		retries  int
		timeout  time.Duration
		failures int32 // versions requests answered 503 (-1: never answered)
		wantErr  string
		wantTry  int32
		wantWait int32
	}{
		{name: "no retries by default", failures: 1, wantErr: "503 Service Unavailable", wantTry: 1},
		{name: "retried until it succeeds", retries: 2, failures: 2, wantTry: 3, wantWait: 2},
		{name: "retries run out", retries: 1, failures: 5, wantErr: "503 Service Unavailable", wantTry: 2, wantWait: 1},
		{name: "each try times out", retries: 1, timeout: 200 * time.Millisecond, failures: -1,
			wantErr: "no complete answer within 200ms (TF_REGISTRY_CLIENT_TIMEOUT)", wantTry: 2, wantWait: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			host := srv.Host()
			srv.Versions["acme/net/aws"] = []string{"1.0.0"}
			srv.Locations["acme/net/aws/1.0.0"] = "/files/net.tar.gz"
			srv.Files["/files/net.tar.gz"] = tarGz(t, files(netModule))
			var tries atomic.Int32
			serve := srv.Config.Handler
			srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/versions") {
					n := tries.Add(1)
					switch {
					case tt.failures < 0:
						<-r.Context().Done()
						return
					case n <= tt.failures:
						http.Error(w, "busy", http.StatusServiceUnavailable)
						return
					}
				}
				serve.ServeHTTP(w, r)
			})
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": "module \"net\" {\n  source  = \"" + host + "/acme/net/aws\"\n}\n"})
			var waits atomic.Int32
			inst := Installer{WorkDir: wd, HTTPClient: srv.Client(), RegistryRetries: tt.retries, RegistryTimeout: tt.timeout,
				Backoff: func(int) time.Duration { waits.Add(1); return 0 }}
			_, ds, _ := install(t, inst)
			switch {
			case tt.wantErr == "" && ds.HasErrors():
				t.Fatalf("Install: %v", ds.Err())
			case tt.wantErr != "" && (!ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantErr)):
				t.Fatalf("Install: %v; want an error with %q", ds.Err(), tt.wantErr)
			}
			if tries.Load() != tt.wantTry || waits.Load() != tt.wantWait {
				t.Errorf("%d tries and %d backoffs, want %d and %d", tries.Load(), waits.Load(), tt.wantTry, tt.wantWait)
			}
		})
	}
}

// TestInstallModulesDir: Installer.ModulesDir moves the installed modules
// and their manifest (TF_DATA_DIR/modules), the manifest naming their
// directories under it, relative or absolute, as Terraform does.
func TestInstallModulesDir(t *testing.T) {
	srv := newServer(t)
	host := srv.Host()
	srv.Versions["acme/net/aws"] = []string{"1.0.0"}
	srv.Locations["acme/net/aws/1.0.0"] = "/files/net.tar.gz"
	srv.Files["/files/net.tar.gz"] = tarGz(t, files(netModule))
	abs := filepath.ToSlash(filepath.Join(t.TempDir(), "data", "modules"))
	for _, dir := range []string{"ci-data/modules", abs} {
		t.Run(dir, func(t *testing.T) {
			wd := t.TempDir()
			writeFiles(t, wd, map[string]string{"main.tf": "module \"net\" {\n  source  = \"" + host + "/acme/net/aws\"\n}\n"})
			m, ds, out := install(t, Installer{WorkDir: wd, HTTPClient: srv.Client(), ModulesDir: dir})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			want := []Record{
				{Key: "", Dir: "."},
				{Key: "net", Source: host + "/acme/net/aws", Version: "1.0.0", Dir: dir + "/net"},
				{Key: "net.sub", Source: "./modules/sub", Dir: dir + "/net/modules/sub"},
			}
			if diff := cmp.Diff(want, m.Records); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
			if !strings.Contains(out, "- net in "+dir+"/net\n") {
				t.Errorf("output:\n%s", out)
			}
			onDisk, err := ReadManifest(pathIn(wd, dir))
			if err != nil || len(onDisk.Records) != 3 {
				t.Errorf("manifest in %s: %v, %v", dir, onDisk, err)
			}
			if _, err := os.Stat(pathIn(wd, dir+"/net/modules/sub/main.tf")); err != nil {
				t.Error(err)
			}
			if _, err := os.Stat(filepath.Join(wd, ".terraform")); !os.IsNotExist(err) {
				t.Errorf(".terraform was created: %v", err)
			}
			// Installing again reuses what is there and removes nothing.
			if _, ds, out := install(t, Installer{WorkDir: wd, HTTPClient: srv.Client(), ModulesDir: dir}); ds.HasErrors() || strings.Contains(out, "Downloading") {
				t.Errorf("second install: %v\n%s", ds.Err(), out)
			}
			if _, err := os.Stat(pathIn(wd, dir+"/net/main.tf")); err != nil {
				t.Error(err)
			}
		})
	}
}
