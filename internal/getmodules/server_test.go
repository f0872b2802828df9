package getmodules

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// entry is one member of a test archive: a file (Body), a directory
// (Dir) or a symbolic link (Link).
type entry struct {
	Name string
	Body string
	Dir  bool
	Link string
}

// files turns name → content into file entries, in name order.
func files(m map[string]string) []entry {
	var es []entry
	for name, body := range m {
		es = append(es, entry{Name: name, Body: body})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	return es
}

func tarGz(t *testing.T, es []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range es {
		h := &tar.Header{Name: e.Name, Mode: 0o644, Size: int64(len(e.Body)), Typeflag: tar.TypeReg}
		switch {
		case e.Dir:
			h = &tar.Header{Name: e.Name, Mode: 0o755, Typeflag: tar.TypeDir}
		case e.Link != "":
			h = &tar.Header{Name: e.Name, Mode: 0o777, Typeflag: tar.TypeSymlink, Linkname: e.Link}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.Body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipOf(t *testing.T, es []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		body := e.Body
		switch {
		case e.Dir:
			h.Name = strings.TrimSuffix(e.Name, "/") + "/"
			h.SetMode(0o755 | 1<<31) // os.ModeDir
		case e.Link != "":
			h.SetMode(0o777 | 1<<27) // os.ModeSymlink
			body = e.Link
		default:
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Dir {
			if _, err := w.Write([]byte(body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// request is what a test server saw of one request.
type request struct {
	Path          string // with the query
	Authorization string
}

// server is a module registry and file server on loopback TLS. Its
// fields may be changed between Installs, not during one.
type server struct {
	*httptest.Server
	// Versions lists each module's versions, by "NAMESPACE/NAME/SYSTEM".
	Versions map[string][]string
	// Locations is the download location of "NAMESPACE/NAME/SYSTEM/VERSION".
	Locations map[string]string
	// JSONLocation makes the download endpoint answer 200 with a JSON
	// location instead of 204 with X-Terraform-Get.
	JSONLocation bool
	// Direct makes the JSON location one of OpenTofu's direct locations
	// (use_registry_credentials): an archive URL, whatever its name.
	Direct bool
	// HeaderWithBody makes the download endpoint answer 200 with the
	// X-Terraform-Get header and this body.
	HeaderWithBody string
	// Files are served by path; a file whose name has no archive
	// extension is served as a page.
	Files map[string][]byte
	// TerraformGet answers a path with this X-Terraform-Get header.
	TerraformGet map[string]string
	// Raw answers a path with this status and body.
	Raw map[string]rawAnswer
	// Redirects answers a path with a redirection to this URL.
	Redirects map[string]string

	mu       sync.Mutex
	requests []request
}

type rawAnswer struct {
	status int
	body   string
}

func newServer(t *testing.T) *server {
	t.Helper()
	s := &server{Versions: map[string][]string{}, Locations: map[string]string{}, Files: map[string][]byte{},
		TerraformGet: map[string]string{}, Raw: map[string]rawAnswer{}}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Host is the server's host:port, as a registry address names it.
func (s *server) Host() string { return strings.TrimPrefix(s.URL, "https://") }

// Requests returns the requests served so far and forgets them.
func (s *server) Requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.requests
	s.requests = nil
	return r
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, request{Path: r.URL.RequestURI(), Authorization: r.Header.Get("Authorization")})
	s.mu.Unlock()
	p := r.URL.Path
	if to, ok := s.Redirects[p]; ok {
		http.Redirect(w, r, to, http.StatusFound)
		return
	}
	if a, ok := s.Raw[p]; ok {
		w.WriteHeader(a.status)
		w.Write([]byte(a.body))
		return
	}
	if loc, ok := s.TerraformGet[p]; ok {
		w.Header().Set("X-Terraform-Get", loc)
		w.WriteHeader(http.StatusOK)
		return
	}
	if b, ok := s.Files[p]; ok {
		w.Write(b)
		return
	}
	if p == "/.well-known/terraform.json" {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}`))
		return
	}
	if rest, ok := strings.CutPrefix(p, "/v1/modules/"); ok {
		parts := strings.Split(rest, "/")
		switch {
		case len(parts) == 4 && parts[3] == "versions":
			vs, ok := s.Versions[strings.Join(parts[:3], "/")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			type version struct {
				Version string `json:"version"`
			}
			var list []version
			for _, v := range vs {
				list = append(list, version{v})
			}
			json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": list}}})
			return
		case len(parts) == 5 && parts[4] == "download":
			loc, ok := s.Locations[strings.Join(parts[:4], "/")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			if s.HeaderWithBody != "" {
				w.Header().Set("X-Terraform-Get", loc)
				w.Write([]byte(s.HeaderWithBody))
				return
			}
			if s.Direct {
				json.NewEncoder(w).Encode(map[string]any{"location": loc, "use_registry_credentials": true})
				return
			}
			if s.JSONLocation {
				json.NewEncoder(w).Encode(map[string]string{"location": loc})
				return
			}
			w.Header().Set("X-Terraform-Get", loc)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	http.NotFound(w, r)
}
