package getmodules

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// maxRedirections bounds how many X-Terraform-Get answers one source may
// go through before reaching a package.
const maxRedirections = 5

// remote is the HTTP side of one Install: registry lookups and package
// downloads. It is owned by the goroutine running Install.
type remote struct {
	// client adds the tokens of Installer.Credentials (withCredentials).
	client *http.Client
	limits Limits
	// services caches each registry host's modules.v1 base URL.
	services map[string]*url.URL
	// retries, timeout and backoff are Installer.RegistryRetries,
	// RegistryTimeout and Backoff.
	retries int
	timeout time.Duration
	backoff func(n int) time.Duration
}

// get sends a GET request for rawURL (the client adds the token of its
// host, if any). A response other than 2xx is returned to the caller with
// its body open.
func (r *remote) get(ctx context.Context, rawURL string, header http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	return r.client.Do(req)
}

// parseURL parses an absolute http or https URL.
func parseURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http or https URL", rawURL)
	}
	return u, nil
}

// redactURL is u without its user information, for messages.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// fetcher fetches a package (a source without subdirectory) into a
// directory that does not exist yet. installation.fetchPackage is the one
// rig uses; remote calls it back for the sources an X-Terraform-Get
// answer names.
type fetcher func(ctx context.Context, pkg Source, dest string, depth int) error

// fetchHTTP fetches the HTTP package pkg into dest: an archive is
// downloaded and extracted; any other URL is asked (with terraform-get=1
// added to its query) for the source of the package, in an X-Terraform-Get
// header or a terraform-get meta tag, which fetch then fetches.
func (r *remote) fetchHTTP(ctx context.Context, pkg Source, dest string, depth int, fetch fetcher) error {
	format, dlURL, err := archiveOf(pkg.URL)
	if err != nil {
		return err
	}
	if format != noArchive {
		return r.fetchArchive(ctx, dlURL, format, dest)
	}
	if depth >= maxRedirections {
		return fmt.Errorf("more than %d X-Terraform-Get redirections", maxRedirections)
	}
	u, err := parseURL(dlURL)
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set("terraform-get", "1")
	u.RawQuery = q.Encode()
	resp, err := r.get(ctx, u.String(), nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("GET %s: %s", redactURL(u), resp.Status)
	}
	location := resp.Header.Get("X-Terraform-Get")
	if location == "" {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		location = metaTerraformGet(string(body))
	}
	if location == "" {
		return fmt.Errorf("%s is not an archive (.zip, .tar.gz, .tgz, .tar, .tar.bz2 or ?archive=FORMAT) and its answer names no module source (no X-Terraform-Get header or terraform-get meta tag)", redactURL(u))
	}
	next, err := resolveLocation(location, u)
	if err != nil {
		return err
	}
	src, err := ParseSource(next)
	if err != nil {
		return fmt.Errorf("%s names the module source %q: %w", redactURL(u), next, err)
	}
	if src.Kind != GitSource && src.Kind != HTTPSource {
		return fmt.Errorf("%s names the module source %q, a %s: it must be a git or HTTP source", redactURL(u), next, src.Kind)
	}
	if src.Subdir == "" {
		return fetch(ctx, src, dest, depth+1)
	}
	// Like go-getter, the named subdirectory becomes the package.
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".download-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	inner := filepath.Join(tmp, "pkg")
	if err := fetch(ctx, src.Package(), inner, depth+1); err != nil {
		return err
	}
	sub := filepath.Join(inner, filepath.FromSlash(src.Subdir))
	if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
		return fmt.Errorf("the package %s has no subdirectory %q", src.Package(), src.Subdir)
	}
	return os.Rename(sub, dest)
}

// resolveLocation resolves an X-Terraform-Get value against the URL that
// gave it when it is a relative URL ("/…", "./…", "../…"); any other value
// is a source address of its own.
func resolveLocation(location string, base *url.URL) (string, error) {
	if !strings.HasPrefix(location, "/") && !strings.HasPrefix(location, "./") && !strings.HasPrefix(location, "../") {
		return location, nil
	}
	ref, err := url.Parse(location)
	if err != nil {
		return "", fmt.Errorf("invalid relative URL %q: %w", location, err)
	}
	return base.ResolveReference(ref).String(), nil
}

var metaTag = regexp.MustCompile(`(?is)<meta\s+name\s*=\s*["']terraform-get["']\s+content\s*=\s*["']([^"']*)["']`)

// metaTerraformGet returns the content of an HTML page's
// <meta name="terraform-get" content="…"> tag, or "".
func metaTerraformGet(page string) string {
	if m := metaTag.FindStringSubmatch(page); m != nil {
		return html.UnescapeString(m[1])
	}
	return ""
}

// fetchArchive downloads the archive at rawURL into a temporary file
// beside dest and extracts it into dest. With format noArchive, the
// format is recognised from the file's first bytes.
func (r *remote) fetchArchive(ctx context.Context, rawURL string, format archiveFormat, dest string) error {
	u, err := parseURL(rawURL)
	if err != nil {
		return err
	}
	resp, err := r.get(ctx, rawURL, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", redactURL(u), resp.Status)
	}
	f, err := os.CreateTemp(filepath.Dir(dest), ".download-*."+format.String())
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	max := r.limits.maxBytes()
	n, err := io.Copy(f, io.LimitReader(resp.Body, max+1))
	if err != nil {
		return fmt.Errorf("GET %s: %w", redactURL(u), err)
	}
	if n > max {
		return fmt.Errorf("GET %s: the archive is larger than %d bytes", redactURL(u), max)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if format == noArchive {
		if format, err = sniffArchive(f); err != nil {
			return fmt.Errorf("%s: %w", redactURL(u), err)
		}
	}
	if err := os.Mkdir(dest, 0o755); err != nil {
		return err
	}
	if err := extractArchive(f, format, dest, r.limits); err != nil {
		os.RemoveAll(dest)
		if errors.Is(err, errArchive) {
			return fmt.Errorf("%s: %w", redactURL(u), err)
		}
		return fmt.Errorf("extract %s: %w", redactURL(u), err)
	}
	return nil
}
