package http

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	nethttp "net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/rig-iac/rig/internal/parallel"
)

// client sends the backend's requests: authentication, headers and retries.
// It is safe for concurrent use and never modified after newClient.
type client struct {
	cfg  Config
	http *nethttp.Client
}

func newClient(cfg Config) (*client, error) {
	transport := nethttp.DefaultTransport.(*nethttp.Transport).Clone()
	tlsCfg, err := tlsConfig(cfg)
	if err != nil {
		return nil, err
	}
	if tlsCfg != nil {
		transport.TLSClientConfig = tlsCfg
	}
	if cfg.Sleep == nil {
		cfg.Sleep = parallel.Sleep
	}
	return &client{cfg: cfg, http: &nethttp.Client{Transport: transport}}, nil
}

// tlsConfig is the TLS configuration the settings ask for, or nil for Go's
// default.
func tlsConfig(cfg Config) (*tls.Config, error) {
	if !cfg.SkipCertVerification && cfg.ClientCACertificatePEM == "" && cfg.ClientCertificatePEM == "" {
		return nil, nil
	}
	t := &tls.Config{InsecureSkipVerify: cfg.SkipCertVerification} //nolint:gosec // the user asked for it
	if cfg.ClientCACertificatePEM != "" {
		t.RootCAs = x509.NewCertPool()
		if !t.RootCAs.AppendCertsFromPEM([]byte(cfg.ClientCACertificatePEM)) {
			return nil, errors.New("client_ca_certificate_pem: failed to append certs: no PEM certificate found")
		}
	}
	if cfg.ClientCertificatePEM != "" {
		cert, err := tls.X509KeyPair([]byte(cfg.ClientCertificatePEM), []byte(cfg.ClientPrivateKeyPEM))
		if err != nil {
			return nil, fmt.Errorf("cannot load client certificate: %w", err)
		}
		t.Certificates = []tls.Certificate{cert}
	}
	return t, nil
}

// parseURL parses one of the addresses; name is how errors call it. A parse
// error does not repeat the address, which may hold a password.
func parseURL(name, s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("failed to parse %s URL: %w", name, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s must be HTTP or HTTPS", name)
	}
	return u, nil
}

// response is a request's outcome: its status and body, read in full.
type response struct {
	status int
	header nethttp.Header
	body   []byte
}

// do sends a request (a body only when body is not empty), retrying as the
// package documentation says, and returns the last answer. what names the
// request in errors ("get state"); errors name the URL without its
// password.
func (c *client) do(ctx context.Context, method string, u *url.URL, body []byte, what string) (*response, error) {
	wait := c.cfg.RetryWaitMin
	for attempt := 1; ; attempt++ {
		resp, err := c.once(ctx, method, u, body)
		retry := retryable(resp, err)
		var ue *url.Error
		if errors.As(err, &ue) {
			// The message names the method and URL itself.
			err = ue.Err
		}
		if !retry || ctx.Err() != nil {
			if err != nil {
				return nil, fmt.Errorf("failed to %s: %s %s: %w", what, method, u.Redacted(), err)
			}
			return resp, nil
		}
		if attempt > c.cfg.RetryMax {
			cause := err
			if cause == nil {
				cause = fmt.Errorf("the last answer was %d %s", resp.status, nethttp.StatusText(resp.status))
			}
			return nil, fmt.Errorf("failed to %s: %s %s giving up after %d attempt(s): %w", what, method, u.Redacted(), attempt, cause)
		}
		d := wait
		if resp != nil {
			if ra, ok := retryAfter(resp); ok {
				d = ra
			}
		}
		d = min(d, c.cfg.RetryWaitMax)
		if err := c.cfg.Sleep(ctx, d); err != nil {
			return nil, fmt.Errorf("failed to %s: %w", what, err)
		}
		wait = min(2*wait, c.cfg.RetryWaitMax)
		if wait <= 0 {
			wait = c.cfg.RetryWaitMax
		}
	}
}

// once sends one request.
func (c *client) once(ctx context.Context, method string, u *url.URL, body []byte) (*response, error) {
	var rd io.Reader
	if len(body) > 0 {
		rd = bytes.NewReader(body)
	}
	req, err := nethttp.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, fmt.Errorf("making the %s request to %s: %w", method, u.Redacted(), err)
	}
	for k, v := range c.cfg.Headers {
		req.Header.Set(k, v)
	}
	if c.cfg.Username != "" {
		req.SetBasicAuth(c.cfg.Username, c.cfg.Password)
	}
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
		sum := md5.Sum(body)
		req.Header.Set("Content-MD5", base64.StdEncoding.EncodeToString(sum[:]))
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// net/http's errors name the URL with its password replaced.
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the answer to %s %s: %w", method, u.Redacted(), err)
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// retryable reports whether a request should be sent again: it could not
// be sent or answered (but for a certificate the client rejects, or a
// cancelled context), or the server answered 429 or a 5xx status other
// than 501.
func retryable(resp *response, err error) bool {
	if err != nil {
		var cert *tls.CertificateVerificationError
		var unknown x509.UnknownAuthorityError
		var hostname x509.HostnameError
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded),
			errors.As(err, &cert), errors.As(err, &unknown), errors.As(err, &hostname):
			return false
		}
		var ue *url.Error
		return errors.As(err, &ue)
	}
	return resp.status == nethttp.StatusTooManyRequests ||
		(resp.status >= 500 && resp.status != nethttp.StatusNotImplemented)
}

// retryAfter is the wait a 429 or 503 answer asks for in seconds.
func retryAfter(resp *response) (time.Duration, bool) {
	if resp.status != nethttp.StatusTooManyRequests && resp.status != nethttp.StatusServiceUnavailable {
		return 0, false
	}
	s, err := strconv.Atoi(resp.header.Get("Retry-After"))
	if err != nil || s < 0 {
		return 0, false
	}
	return time.Duration(s) * time.Second, true
}
