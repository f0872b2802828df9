package getproviders

import (
	"os"
	"strings"
)

// Credentials are the API tokens of hosts: the CLI configuration's
// credentials "HOST" { token = "…" } blocks and the TF_TOKEN_… environment
// variables. The zero value has none. Tokens are secrets: nothing in rig
// prints them.
type Credentials struct {
	// configured maps a lower-case host ("app.example.com",
	// "localhost:8443") to its token from a credentials block.
	configured map[string]string
	// env maps a lower-case host to its token from TF_TOKEN_ variables.
	env map[string]string
}

// NewCredentials returns the credentials of the CLI configuration's
// blocks (host to token) and of the environment (environ as os.Environ
// gives it). An environment variable wins over a block for the same host,
// as in Terraform.
func NewCredentials(configured map[string]string, environ []string) Credentials {
	c := Credentials{configured: map[string]string{}, env: map[string]string{}}
	for h, t := range configured {
		c.configured[strings.ToLower(h)] = t
	}
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if host, ok := tokenEnvHost(name); ok && val != "" {
			c.env[host] = val
		}
	}
	return c
}

// EnvCredentials returns the credentials of configured blocks and of the
// process environment.
func EnvCredentials(configured map[string]string) Credentials {
	return NewCredentials(configured, os.Environ())
}

// tokenEnvHost decodes the host of a TF_TOKEN_ variable name as Terraform
// does: a double underscore stands for a hyphen, a single one for a dot
// (TF_TOKEN_app_example__corp_com is app.example-corp.com).
func tokenEnvHost(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "TF_TOKEN_")
	if !ok || rest == "" {
		return "", false
	}
	const hyphen = "\x00"
	rest = strings.ReplaceAll(rest, "__", hyphen)
	rest = strings.ReplaceAll(rest, "_", ".")
	rest = strings.ReplaceAll(rest, hyphen, "-")
	return strings.ToLower(rest), true
}

// Token returns the token of host ("" for none).
func (c Credentials) Token(host string) string {
	host = strings.ToLower(host)
	if t, ok := c.env[host]; ok {
		return t
	}
	return c.configured[host]
}
