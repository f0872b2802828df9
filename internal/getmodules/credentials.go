package getmodules

import (
	"net/http"

	"github.com/rig-iac/rig/internal/getproviders"
)

// authTransport adds to each request the token of the host it goes to,
// if any, and takes out any Authorization header otherwise. Being below
// the client, it decides again for every redirected request, so a token
// never follows a redirection to another host.
type authTransport struct {
	base  http.RoundTripper
	creds getproviders.Credentials
}

// RoundTrip implements http.RoundTripper; it does not modify req.
func (a authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t := a.creds.Token(req.URL.Host)
	if t != "" || req.Header.Get("Authorization") != "" {
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
		if t != "" {
			req.Header.Set("Authorization", "Bearer "+t)
		}
	}
	return a.base.RoundTrip(req)
}

// withCredentials returns a copy of client whose requests carry the
// tokens of creds, each to its own host only.
func withCredentials(client *http.Client, creds getproviders.Credentials) *http.Client {
	c := *client
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = authTransport{base: base, creds: creds}
	return &c
}
