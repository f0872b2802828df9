package getproviders

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// HostServices returns the services host offers, by service ID, each
// with its value as JSON (a URL string, or an object such as login.v1's):
// those a host block of the CLI configuration gives, else those of the
// host's discovery document https://HOST/.well-known/terraform.json. It is
// not cached.
func (c *Client) HostServices(ctx context.Context, host string) (map[string]json.RawMessage, error) {
	if s, ok := c.Services[normalizeHost(host)]; ok {
		out := map[string]json.RawMessage{}
		for id, u := range s {
			out[id], _ = json.Marshal(u)
		}
		return out, nil
	}
	u := "https://" + host + "/.well-known/terraform.json"
	body, err := c.get(ctx, u, host, 1<<20)
	if IsNotFound(err) {
		return nil, fmt.Errorf("host %s offers no services: it has no service discovery document at %s", host, u)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to discover the services of host %s: %w", host, err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("host %s returned an invalid service discovery document: %w", host, err)
	}
	return doc, nil
}

// ServiceBase resolves the URL a service's value names against host's
// discovery document, as ServiceURL does; raw is the value as JSON.
func ServiceBase(host string, raw json.RawMessage) (*url.URL, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("host %s gives a service that is not a URL: %s", host, raw)
	}
	base := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	u, err := base.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("host %s gives an invalid URL: %q", host, s)
	}
	return u, nil
}

// HTTPClient returns the HTTP client the Client sends its requests with.
func (c *Client) HTTPClient() *http.Client { return c.client() }

// CredentialsFilePath returns the file `terraform login` and `rig login`
// keep API tokens in: credentials.tfrc.json in the CLI configuration
// directory, ~/.terraform.d.
func CredentialsFilePath() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".terraform.d", "credentials.tfrc.json"), nil
}

// ParseHost returns the host a user names on the command line (login,
// logout) as credentials compare hosts (NormalizeHost), or false when it
// is not a host name, optionally with a numeric port.
func ParseHost(arg string) (string, bool) {
	host := strings.ToLower(arg)
	if host == "" || strings.ContainsAny(host, "/@?# \t") {
		return "", false
	}
	if h, port, ok := strings.Cut(host, ":"); ok {
		if h == "" || port == "" || strings.ContainsAny(h, "/@?#: \t") || strings.Trim(port, "0123456789") != "" {
			return "", false
		}
	}
	return NormalizeHost(host), true
}

// NormalizeHost returns a host as credentials compare hosts: lower-case,
// without the https default port.
func NormalizeHost(h string) string { return normalizeHost(h) }
