package getmodules

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	hcl1 "github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/hcl/token"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// Credentials are the API tokens of module registries and of the hosts
// that serve their packages, by host. A token is sent as a Bearer token to
// its own host only, and never appears in output or errors. The zero value
// holds none.
type Credentials struct {
	tokens map[string]string // normalized host → token
}

// NewCredentials returns credentials holding the given tokens by host
// ("registry.example.com", "127.0.0.1:8443").
func NewCredentials(tokens map[string]string) Credentials {
	c := Credentials{tokens: map[string]string{}}
	for h, t := range tokens {
		c.tokens[normalizeHost(h)] = t
	}
	return c
}

// String names the hosts that have a token, never the tokens.
func (c Credentials) String() string {
	return fmt.Sprintf("credentials for %d hosts", len(c.tokens))
}

// GoString is String: formatting with %#v shows no token either.
func (c Credentials) GoString() string { return c.String() }

// token returns the token of a host ("h.example.com", "127.0.0.1:8443").
func (c Credentials) token(host string) (string, bool) {
	t, ok := c.tokens[normalizeHost(host)]
	return t, ok
}

// authTransport adds to each request the token of the host it goes to,
// if any, and takes out any Authorization header otherwise. Being below
// the client, it decides again for every redirected request, so a token
// never follows a redirection to another host.
type authTransport struct {
	base  http.RoundTripper
	creds Credentials
}

// RoundTrip implements http.RoundTripper; it does not modify req.
func (a authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t, ok := a.creds.token(req.URL.Host)
	if ok || req.Header.Get("Authorization") != "" {
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
		if ok {
			req.Header.Set("Authorization", "Bearer "+t)
		}
	}
	return a.base.RoundTrip(req)
}

// withCredentials returns a copy of client whose requests carry the
// tokens of creds, each to its own host only.
func withCredentials(client *http.Client, creds Credentials) *http.Client {
	c := *client
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = authTransport{base: base, creds: creds}
	return &c
}

// normalizeHost lowercases a host and drops the https default port, the
// way Terraform compares service hosts.
func normalizeHost(h string) string {
	h = strings.ToLower(h)
	return strings.TrimSuffix(h, ":443")
}

// LoadCredentials reads the tokens Terraform would use: a TF_TOKEN_…
// variable of environ first (TF_TOKEN_registry_example_com for
// registry.example.com; "__" stands for "-"), then the credentials blocks
// of the CLI configuration file (getproviders.CLIConfigPath), then
// ~/.terraform.d/credentials.tfrc.json as terraform login writes it.
// Problems reading the files are warnings.
func LoadCredentials(environ []string) (Credentials, diag.Diagnostics) {
	var ds diag.Diagnostics
	tokens := map[string]string{}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".terraform.d", "credentials.tfrc.json")
		if src, err := os.ReadFile(p); err == nil {
			var f struct {
				Credentials map[string]struct {
					Token string `json:"token"`
				} `json:"credentials"`
			}
			if err := json.Unmarshal(src, &f); err != nil {
				ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid credentials file",
					Detail: fmt.Sprintf("The credentials file %s could not be read: %s.", p, err)})
			}
			for h, c := range f.Credentials {
				if c.Token != "" {
					tokens[normalizeHost(h)] = c.Token
				}
			}
		}
	}
	if p := getproviders.CLIConfigPath(); p != "" {
		if src, err := os.ReadFile(p); err == nil {
			more, err := cliConfigTokens(src)
			if err != nil {
				ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Invalid credentials in the CLI configuration",
					Detail: fmt.Sprintf("%s: %s.", p, err)})
			}
			for h, t := range more {
				tokens[h] = t
			}
		}
	}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, "TF_TOKEN_") || value == "" {
			continue
		}
		host := strings.TrimPrefix(name, "TF_TOKEN_")
		host = strings.ReplaceAll(host, "__", "\x00")
		host = strings.ReplaceAll(host, "_", ".")
		host = strings.ReplaceAll(host, "\x00", "-")
		tokens[normalizeHost(host)] = value
	}
	return Credentials{tokens: tokens}, ds
}

// cliConfigTokens returns the tokens of the credentials "HOST" { token =
// "…" } blocks of a CLI configuration file (HCL 1). Errors name the line,
// never the token.
func cliConfigTokens(src []byte) (map[string]string, error) {
	f, err := hcl1.ParseBytes(src)
	if err != nil {
		// getproviders.LoadCLIConfig reports the file's syntax errors.
		return nil, nil
	}
	list, ok := f.Node.(*ast.ObjectList)
	if !ok {
		return nil, nil
	}
	tokens := map[string]string{}
	for _, item := range list.Filter("credentials").Items {
		if len(item.Keys) != 1 {
			return tokens, fmt.Errorf("line %d: a credentials block needs one label, the host", item.Pos().Line)
		}
		host, ok := item.Keys[0].Token.Value().(string)
		if !ok {
			return tokens, fmt.Errorf("line %d: a credentials block needs one label, the host", item.Pos().Line)
		}
		body, ok := item.Val.(*ast.ObjectType)
		if !ok {
			return tokens, fmt.Errorf("line %d: credentials must be a block", item.Pos().Line)
		}
		for _, attr := range body.List.Filter("token").Items {
			lit, ok := attr.Val.(*ast.LiteralType)
			if !ok || lit.Token.Type != token.STRING {
				return tokens, fmt.Errorf("line %d: the token of %s must be a string", attr.Val.Pos().Line, host)
			}
			if t, ok := lit.Token.Value().(string); ok && t != "" {
				tokens[normalizeHost(host)] = t
			}
		}
	}
	return tokens, nil
}
