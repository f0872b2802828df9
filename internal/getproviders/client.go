package getproviders

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/parallel"
)

// Client makes the HTTP requests of the registry and network mirror
// sources: it discovers a host's services, sends the credentials of the
// host a request is for, and retries what may be transient (a 429 or 5xx
// answer, a failed connection). A Client is safe for concurrent use; its
// fields must not change once it is in use.
type Client struct {
	// HTTP sends the requests; nil means a client that waits up to 30s
	// for an answer and also trusts the certificates of the file
	// SSL_CERT_FILE names (read when the Client is first used).
	HTTP *http.Client
	// Credentials holds the API tokens of hosts (NewCredentials). A token is
	// sent to its own host, and to the services a host block or the
	// discovery document of that host names; never anywhere else.
	Credentials Credentials
	// Services are the services of hosts given in the CLI configuration's
	// host blocks, by host then service ID ("providers.v1"); such a host
	// is not asked for its discovery document.
	Services map[string]map[string]string
	// MaxAttempts bounds the tries of one request (0 means 4).
	MaxAttempts int
	// DownloadAttempts bounds the tries of a package download; 0 means
	// MaxAttempts.
	DownloadAttempts int
	// RequestTimeout bounds each try of a request for a JSON document
	// (service discovery, versions, package metadata, a mirror's index),
	// not of a package download; 0 means none beyond the HTTP client's
	// wait for an answer.
	RequestTimeout time.Duration
	// Backoff is the pause before retry attempt n (1 for the first retry);
	// nil means 1s, 2s, 4s… up to 10s. Tests make it short.
	Backoff func(n int) time.Duration

	once       sync.Once
	httpClient *http.Client
	mu         sync.Mutex
	// discovered caches each host's discovery result; guarded by mu.
	discovered map[string]discovery
}

type discovery struct {
	services map[string]string
	err      error
}

func (c *Client) client() *http.Client {
	c.once.Do(func() {
		c.httpClient = c.HTTP
		if c.httpClient == nil {
			c.httpClient = defaultHTTPClient()
		}
	})
	return c.httpClient
}

// defaultHTTPClient trusts the system's roots plus the file SSL_CERT_FILE
// names, read now (the system pool is read once per process).
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		if pem, err := os.ReadFile(f); err == nil {
			pool, err := x509.SystemCertPool()
			if err != nil || pool == nil {
				pool = x509.NewCertPool()
			}
			if pool.AppendCertsFromPEM(pem) {
				t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
			}
		}
	}
	// No overall timeout: a package may take long to download; a server
	// that does not answer at all is given up on.
	t.ResponseHeaderTimeout = 30 * time.Second
	return &http.Client{Transport: t}
}

// attempts is how many times a request is tried: a download's with
// download set.
func (c *Client) attempts(download bool) int {
	switch {
	case download && c.DownloadAttempts > 0:
		return c.DownloadAttempts
	case c.MaxAttempts <= 0:
		return 4
	}
	return c.MaxAttempts
}

func (c *Client) backoff(n int) time.Duration {
	if c.Backoff != nil {
		return c.Backoff(n)
	}
	d := time.Second << (n - 1)
	if d > 10*time.Second || d <= 0 {
		d = 10 * time.Second
	}
	return d
}

// StatusError is an unexpected HTTP status.
type StatusError struct {
	URL    string
	Status string
	Code   int
}

func (e *StatusError) Error() string { return fmt.Sprintf("GET %s: %s", e.URL, e.Status) }

// IsNotFound reports whether err is a 404 answer.
func IsNotFound(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Code == http.StatusNotFound
}

// get fetches u and returns its body. tokenHost, when not "", is the host
// whose credentials go with the request (a registry's API on another host);
// otherwise the URL's own host's credentials go with it. A 2xx answer is
// success; 429, 5xx and failed connections are retried; anything else is a
// *StatusError. limit bounds the body read.
func (c *Client) get(ctx context.Context, u, tokenHost string, limit int64) ([]byte, error) {
	var body []byte
	err := c.do(ctx, u, tokenHost, requestKind{timeout: c.RequestTimeout}, func(r io.Reader) error {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		if err == nil && int64(len(b)) > limit {
			return fmt.Errorf("%w of %d bytes", errTooLarge, limit)
		}
		body = b
		return err
	})
	return body, err
}

// errTooLarge is a response over the size allowed; it is not retried.
var errTooLarge = errors.New("the response is larger than the limit")

// do requests u until an attempt succeeds, fails for good, or the
// attempts run out, handing a successful answer's body to consume (which
// must start afresh on each call).
// requestKind says how a request is made: a metadata request each of whose
// tries takes at most timeout (0: no limit), or a package download.
type requestKind struct {
	timeout  time.Duration
	download bool
}

func (c *Client) do(ctx context.Context, u, tokenHost string, kind requestKind, consume func(io.Reader) error) error {
	parsed, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("invalid URL %q: %w", u, err)
	}
	if tokenHost == "" {
		tokenHost = parsed.Host
	}
	var lastErr error
	attempts := c.attempts(kind.download)
	for attempt := 1; attempt <= attempts; attempt++ {
		if err := c.pause(ctx, attempt); err != nil {
			return err
		}
		retry, err := c.getOnce(ctx, parsed, tokenHost, kind.timeout, consume)
		if err == nil {
			return nil
		}
		lastErr = err
		if !retry || ctx.Err() != nil {
			return err
		}
	}
	return fmt.Errorf("%w (gave up after %d attempts)", lastErr, attempts)
}

// getOnce makes one request and hands a 2xx answer's body to consume;
// retry says whether a failure may be transient.
func (c *Client) getOnce(ctx context.Context, u *url.URL, tokenHost string, timeout time.Duration, consume func(io.Reader) error) (retry bool, err error) {
	reqCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		reqCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
		defer func() {
			if err != nil && ctx.Err() == nil && errors.Is(reqCtx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("GET %s: no complete answer within %s (TF_REGISTRY_CLIENT_TIMEOUT)", u.Redacted(), timeout)
			}
		}()
	}
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("User-Agent", "rig")
	if tok := c.Credentials.Token(tokenHost); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.client().Do(req)
	if err != nil {
		// A refused or reset connection or a timeout is worth another
		// try; an unknown host or a certificate rig does not trust is not.
		return transient(err), err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		retry := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		return retry, &StatusError{URL: u.Redacted(), Status: resp.Status, Code: resp.StatusCode}
	}
	if err := consume(resp.Body); err != nil {
		return !errors.Is(err, errTooLarge), fmt.Errorf("GET %s: reading the response: %w", u.Redacted(), err)
	}
	return false, nil
}

// transient reports whether a failed request may succeed if tried again.
func transient(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return false
	}
	var unknownCA x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	if errors.As(err, &unknownCA) || errors.As(err, &invalid) || errors.As(err, &hostname) || errors.As(err, &verify) {
		return false
	}
	return true
}

// download fetches u (with the credentials of its own host) into the file
// to and returns the file's SHA-256.
func (c *Client) download(ctx context.Context, u, to string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	err := c.do(ctx, u, "", requestKind{download: true}, func(r io.Reader) error {
		f, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		h := sha256.New()
		if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
			f.Close()
			return err
		}
		copy(sum[:], h.Sum(nil))
		return f.Close()
	})
	return sum, err
}

// pause waits before attempt (from 1), the backoff of its retry.
func (c *Client) pause(ctx context.Context, attempt int) error {
	if attempt <= 1 {
		return nil
	}
	return parallel.Sleep(ctx, c.backoff(attempt-1))
}

// ServiceURL returns the base URL of service id ("providers.v1") of host:
// from a host block of the CLI configuration, else from the host's
// discovery document https://HOST/.well-known/terraform.json, relative
// URLs resolved against it. Results are cached per host.
func (c *Client) ServiceURL(ctx context.Context, host, id string) (*url.URL, error) {
	services, err := c.services(ctx, host)
	if err != nil {
		return nil, err
	}
	raw, ok := services[id]
	if !ok {
		return nil, fmt.Errorf("host %s does not offer a provider registry (its service discovery document has no %q)", host, id)
	}
	base := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	u, err := base.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("host %s gives an invalid URL for %s: %q", host, id, raw)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, fmt.Errorf("host %s gives an invalid URL for %s: %q", host, id, raw)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

func (c *Client) services(ctx context.Context, host string) (map[string]string, error) {
	if s, ok := c.Services[host]; ok {
		return s, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.discovered[host]; ok {
		return d.services, d.err
	}
	s, err := c.discover(ctx, host)
	if ctx.Err() == nil {
		if c.discovered == nil {
			c.discovered = map[string]discovery{}
		}
		c.discovered[host] = discovery{services: s, err: err}
	}
	return s, err
}

func (c *Client) discover(ctx context.Context, host string) (map[string]string, error) {
	u := "https://" + host + "/.well-known/terraform.json"
	body, err := c.get(ctx, u, host, 1<<20)
	if IsNotFound(err) {
		return nil, fmt.Errorf("host %s does not offer a provider registry (no service discovery document at %s)", host, u)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to discover the services of host %s: %w", host, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("host %s returned an invalid service discovery document: %w", host, err)
	}
	out := map[string]string{}
	for k, v := range doc {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out, nil
}
