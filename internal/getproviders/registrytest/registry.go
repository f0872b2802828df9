// Package registrytest owns an in-process provider registry for tests: a
// TLS server on loopback that speaks the provider registry protocol
// (service discovery, versions, download descriptions) and serves the
// provider zips, SHA256SUMS and its detached OpenPGP signature it builds
// from the releases a test gives, signed with a key it generates. Tests
// can make it misbehave: tamper with a zip or with SHA256SUMS, sign with
// a key it does not offer, offer no key, or answer requests through a
// hook (503s, garbage). It records every request with its Authorization
// header.
//
// It imports no rig package.
package registrytest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// Release is one provider version the registry serves.
type Release struct {
	Namespace, Type, Version string
	// Platforms are "OS_ARCH" strings.
	Platforms []string
	// Protocols are the plugin protocol versions it speaks; nil means 5.0.
	Protocols []string
	// Executable, when set, is the content of the executable in the zip
	// for every platform; otherwise a small script naming the platform.
	Executable []byte
}

// Request is one request the registry received.
type Request struct {
	Path string
	// Authorization is the request's Authorization header ("" for none).
	Authorization string
}

// Registry is a running registry. Its exported fields may be changed
// while it runs; mu guards them against the server's goroutines through
// Set.
type Registry struct {
	// Server is the TLS server; its certificate is valid for 127.0.0.1.
	Server *httptest.Server
	// Host is the host:port of the server, a valid provider source host.
	Host string
	// Key signs SHA256SUMS and is offered for every provider.
	Key *openpgp.Entity

	mu        sync.Mutex
	releases  []Release
	opts      Options
	requests  []Request
	zips      map[string][]byte // by URL path
	sums, sig map[string][]byte // by "NS/TYPE/VERSION"
}

// Options change how the registry behaves.
type Options struct {
	// SignWith signs SHA256SUMS instead of Key.
	SignWith *openpgp.Entity
	// NoKeys offers no signing key.
	NoKeys bool
	// TamperZip serves zips other than those SHA256SUMS lists (and gives
	// their SHA-256 as the download's shasum).
	TamperZip bool
	// TamperSums serves a SHA256SUMS changed after it was signed.
	TamperSums bool
	// Hook, when set, sees each request first; returning true means it
	// answered it.
	Hook func(w http.ResponseWriter, r *http.Request) bool
}

// NewKey generates an OpenPGP signing key.
func NewKey(t testing.TB, name string) *openpgp.Entity {
	t.Helper()
	e, err := openpgp.NewEntity(name, "", name+"@example.com", keyConfig())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func keyConfig() *packet.Config {
	return &packet.Config{Algorithm: packet.PubKeyAlgoRSA, RSABits: 2048, Time: fixedTime}
}

func fixedTime() time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) }

// ArmoredPublicKey returns e's public key, ASCII-armored.
func ArmoredPublicKey(t testing.TB, e *openpgp.Entity) string {
	t.Helper()
	s, err := armored(e)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sharedKey is the key of registries given none, generated once per
// process (RSA key generation takes a while).
var sharedKey struct {
	once sync.Once
	key  *openpgp.Entity
	err  error
}

// New starts a registry serving releases, signed with key (nil: a key
// shared by all such registries), and stops it when the test ends.
func New(t testing.TB, key *openpgp.Entity, releases ...Release) *Registry {
	t.Helper()
	if key == nil {
		sharedKey.once.Do(func() {
			sharedKey.key, sharedKey.err = openpgp.NewEntity("registry", "", "registry@example.com", keyConfig())
		})
		if sharedKey.err != nil {
			t.Fatal(sharedKey.err)
		}
		key = sharedKey.key
	}
	r := &Registry{Key: key, releases: releases, zips: map[string][]byte{}, sums: map[string][]byte{}, sig: map[string][]byte{}}
	r.Server = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Server.Close)
	r.Host = strings.TrimPrefix(r.Server.URL, "https://")
	for _, rel := range releases {
		var lines []string
		for _, pl := range rel.Platforms {
			z := buildZip(t, rel, pl)
			name := zipName(rel, pl)
			r.zips[r.filePath(rel, name)] = z
			lines = append(lines, fmt.Sprintf("%x  %s\n", sha256.Sum256(z), name))
		}
		// Real releases list their manifest too.
		lines = append(lines, fmt.Sprintf("%x  terraform-provider-%s_%s_manifest.json\n", ManifestSHA256(rel), rel.Type, rel.Version))
		sort.Strings(lines)
		r.sums[relKey(rel)] = []byte(strings.Join(lines, ""))
	}
	r.resign(t)
	return r
}

// Set changes the registry's options (re-signing SHA256SUMS).
func (r *Registry) Set(t testing.TB, o Options) {
	t.Helper()
	r.mu.Lock()
	r.opts = o
	r.mu.Unlock()
	r.resign(t)
}

func (r *Registry) resign(t testing.TB) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	signer := r.Key
	if r.opts.SignWith != nil {
		signer = r.opts.SignWith
	}
	for k, doc := range r.sums {
		var b bytes.Buffer
		if err := openpgp.DetachSign(&b, signer, bytes.NewReader(doc), &packet.Config{Time: fixedTime}); err != nil {
			t.Fatal(err)
		}
		r.sig[k] = b.Bytes()
	}
}

// Requests returns the requests received so far.
func (r *Registry) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.requests)
}

// ZipSHA256 returns the SHA-256 of the zip of rel for platform, as
// SHA256SUMS lists it.
func (r *Registry) ZipSHA256(rel Release, platform string) [sha256.Size]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return sha256.Sum256(r.zips[r.filePath(rel, zipName(rel, platform))])
}

// ManifestSHA256 returns the SHA-256 of the manifest of rel, which its
// SHA256SUMS lists beside the zips (as real releases' do).
func ManifestSHA256(rel Release) [sha256.Size]byte {
	return sha256.Sum256([]byte(fmt.Sprintf(`{"version":1,"metadata":{"protocol_versions":[%q]}}`, protocols(rel)[0])))
}

// Zip returns the zip of rel for platform.
func (r *Registry) Zip(rel Release, platform string) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.zips[r.filePath(rel, zipName(rel, platform))]
}

func relKey(rel Release) string { return rel.Namespace + "/" + rel.Type + "/" + rel.Version }

func zipName(rel Release, platform string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", rel.Type, rel.Version, platform)
}

func (r *Registry) filePath(rel Release, name string) string {
	return "/files/" + relKey(rel) + "/" + name
}

// buildZip makes the package of rel for platform: one executable, with
// the platform as the archive's comment.
func buildZip(t testing.TB, rel Release, platform string) []byte {
	t.Helper()
	content := rel.Executable
	if content == nil {
		content = []byte(fmt.Sprintf("#!/bin/sh\n# %s/%s %s %s\n", rel.Namespace, rel.Type, rel.Version, platform))
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	// Deflated at the fastest level: a real provider executable is tens of
	// megabytes, and a registry serves it for several platforms and
	// versions.
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	h := &zip.FileHeader{Name: fmt.Sprintf("terraform-provider-%s_v%s", rel.Type, rel.Version), Method: zip.Deflate, Modified: fixedTime()}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(content); err != nil {
		t.Fatal(err)
	}
	// Each platform's zip differs, as real ones do, even with the same
	// executable.
	if err := zw.SetComment(platform); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func (r *Registry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests = append(r.requests, Request{Path: req.URL.Path, Authorization: req.Header.Get("Authorization")})
	opts := r.opts
	r.mu.Unlock()
	if opts.Hook != nil && opts.Hook(w, req) {
		return
	}
	path := req.URL.Path
	switch {
	case path == "/.well-known/terraform.json":
		writeJSON(w, map[string]any{"providers.v1": "/v1/providers/"})
	case strings.HasPrefix(path, "/v1/providers/"):
		r.serveAPI(w, strings.Split(strings.TrimPrefix(path, "/v1/providers/"), "/"), opts)
	case strings.HasPrefix(path, "/files/"):
		r.serveFile(w, path, opts)
	default:
		http.NotFound(w, req)
	}
}

func (r *Registry) find(ns, typ string) []Release {
	var out []Release
	for _, rel := range r.releases {
		if rel.Namespace == ns && rel.Type == typ {
			out = append(out, rel)
		}
	}
	return out
}

func protocols(rel Release) []string {
	if rel.Protocols == nil {
		return []string{"5.0"}
	}
	return rel.Protocols
}

// serveAPI answers NS/TYPE/versions and NS/TYPE/VERSION/download/OS/ARCH.
func (r *Registry) serveAPI(w http.ResponseWriter, parts []string, opts Options) {
	if len(parts) < 3 {
		http.NotFound(w, nil)
		return
	}
	rels := r.find(parts[0], parts[1])
	if len(rels) == 0 {
		http.Error(w, `{"errors":["Not Found"]}`, http.StatusNotFound)
		return
	}
	if len(parts) == 3 && parts[2] == "versions" {
		type platform struct {
			OS   string `json:"os"`
			Arch string `json:"arch"`
		}
		type version struct {
			Version   string     `json:"version"`
			Protocols []string   `json:"protocols"`
			Platforms []platform `json:"platforms"`
		}
		var vs []version
		for _, rel := range rels {
			v := version{Version: rel.Version, Protocols: protocols(rel), Platforms: []platform{}}
			for _, pl := range rel.Platforms {
				o, a, _ := strings.Cut(pl, "_")
				v.Platforms = append(v.Platforms, platform{o, a})
			}
			vs = append(vs, v)
		}
		writeJSON(w, map[string]any{"versions": vs})
		return
	}
	if len(parts) != 6 || parts[3] != "download" {
		http.NotFound(w, nil)
		return
	}
	platform := parts[4] + "_" + parts[5]
	for _, rel := range rels {
		if rel.Version != parts[2] || !slices.Contains(rel.Platforms, platform) {
			continue
		}
		base := r.Server.URL + "/files/" + relKey(rel) + "/"
		keys := []map[string]any{}
		if !opts.NoKeys {
			a, err := armored(r.Key)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			keys = append(keys, map[string]any{"key_id": r.Key.PrimaryKey.KeyIdString(), "ascii_armor": a, "trust_signature": "", "source": "Test", "source_url": nil})
		}
		// The shasum is that of the zip served, tampered or not: what a
		// compromised registry API would say. Only the signed SHA256SUMS
		// can tell.
		sum := sha256.Sum256(r.servedZip(r.filePath(rel, zipName(rel, platform)), opts))
		writeJSON(w, map[string]any{
			"protocols":             protocols(rel),
			"os":                    parts[4],
			"arch":                  parts[5],
			"filename":              zipName(rel, platform),
			"download_url":          base + zipName(rel, platform),
			"shasums_url":           base + "SHA256SUMS",
			"shasums_signature_url": base + "SHA256SUMS.sig",
			"shasum":                fmt.Sprintf("%x", sum),
			"signing_keys":          map[string]any{"gpg_public_keys": keys},
		})
		return
	}
	http.Error(w, `{"errors":["Not Found"]}`, http.StatusNotFound)
}

func (r *Registry) serveFile(w http.ResponseWriter, path string, opts Options) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := strings.TrimPrefix(path[:strings.LastIndex(path, "/")], "/files/")
	switch {
	case strings.HasSuffix(path, "/SHA256SUMS"):
		doc, ok := r.sums[key]
		if !ok {
			http.NotFound(w, nil)
			return
		}
		if opts.TamperSums {
			doc = append(slices.Clone(doc), []byte(strings.Repeat("0", 64)+"  terraform-provider-extra.zip\n")...)
		}
		_, _ = w.Write(doc)
	case strings.HasSuffix(path, "/SHA256SUMS.sig"):
		sig, ok := r.sig[key]
		if !ok {
			http.NotFound(w, nil)
			return
		}
		_, _ = w.Write(sig)
	default:
		z := r.servedZipLocked(path, opts)
		if z == nil {
			http.NotFound(w, nil)
			return
		}
		_, _ = w.Write(z)
	}
}

// servedZip returns the zip at path as served (nil for none).
func (r *Registry) servedZip(path string, opts Options) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.servedZipLocked(path, opts)
}

func (r *Registry) servedZipLocked(path string, opts Options) []byte {
	z, ok := r.zips[path]
	if !ok {
		return nil
	}
	if opts.TamperZip {
		z = append(slices.Clone(z), 0)
	}
	return z
}

func armored(e *openpgp.Entity) (string, error) {
	var b bytes.Buffer
	w, err := armor.Encode(&b, openpgp.PublicKeyType, nil)
	if err != nil {
		return "", err
	}
	if err := e.Serialize(w); err != nil {
		return "", err
	}
	err = w.Close()
	return b.String(), err
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
