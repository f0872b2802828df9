package getproviders

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// Credentials are the API tokens of hosts: the TF_TOKEN_… environment
// variables, the CLI configuration's credentials "HOST" { token = "…" }
// blocks, and ~/.terraform.d/credentials.tfrc.json as terraform login
// writes it, in that order of precedence. The zero value has none. Tokens
// are secrets: nothing in rig prints them (String and GoString name hosts
// only), and a token goes to its own host only.
type Credentials struct {
	// configured maps a lower-case host ("app.example.com",
	// "localhost:8443") to its token from a credentials block.
	configured map[string]string
	// env maps a lower-case host to its token from TF_TOKEN_ variables.
	env map[string]string
	// file maps a lower-case host to its token from credentials.tfrc.json.
	file map[string]string
}

// String names how many hosts have a token, never the tokens.
func (c Credentials) String() string {
	hosts := map[string]bool{}
	for _, m := range []map[string]string{c.configured, c.env, c.file} {
		for h := range m {
			hosts[h] = true
		}
	}
	return fmt.Sprintf("credentials for %d hosts", len(hosts))
}

// GoString is String: formatting with %#v shows no token either.
func (c Credentials) GoString() string { return c.String() }

// LoadCredentials returns the tokens Terraform would use: those of
// environ's TF_TOKEN_… variables, of the CLI configuration file's
// credentials blocks (CLIConfigPath), and of
// ~/.terraform.d/credentials.tfrc.json. A problem with the credentials
// file is a warning; the CLI configuration's own are LoadCLIConfig's to
// report.
func LoadCredentials(environ []string) (Credentials, diag.Diagnostics) {
	configured := map[string]string{}
	if p := CLIConfigPath(); p != "" {
		if src, err := os.ReadFile(p); err == nil {
			cfg, _ := ParseCLIConfig(src, p)
			configured = cfg.Credentials
		}
	}
	c := NewCredentials(configured, environ)
	file, ds := credentialsFile()
	c.file = file
	return c, ds
}

// credentialsFile reads ~/.terraform.d/credentials.tfrc.json
// (%APPDATA%\terraform.d\credentials.tfrc.json on Windows): host to token.
func credentialsFile() (map[string]string, diag.Diagnostics) {
	dir := userConfigDir()
	if dir == "" {
		return nil, nil
	}
	p := filepath.Join(dir, "credentials.tfrc.json")
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, nil
	}
	var f struct {
		Credentials map[string]struct {
			Token string `json:"token"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(src, &f); err != nil {
		return nil, diag.Diagnostics{{Severity: diag.Warning, Summary: "Invalid credentials file",
			Detail: fmt.Sprintf("The credentials file %s could not be read: %s.", p, err)}}
	}
	tokens := map[string]string{}
	for h, c := range f.Credentials {
		if c.Token != "" {
			tokens[normalizeHost(h)] = c.Token
		}
	}
	return tokens, nil
}

// normalizeHost lowercases a host and drops the https default port, the
// way Terraform compares service hosts.
func normalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ":443")
}

// NewCredentials returns the credentials of the CLI configuration's
// blocks (host to token) and of the environment (environ as os.Environ
// gives it). An environment variable wins over a block for the same host,
// as in Terraform.
func NewCredentials(configured map[string]string, environ []string) Credentials {
	c := Credentials{configured: map[string]string{}, env: map[string]string{}}
	for h, t := range configured {
		c.configured[normalizeHost(h)] = t
	}
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if host, ok := tokenEnvHost(name); ok && val != "" {
			c.env[normalizeHost(host)] = val
		}
	}
	return c
}

// EnvCredentials returns the credentials of configured blocks, of the
// process environment and of credentials.tfrc.json (whose problems
// LoadCredentials reports).
func EnvCredentials(configured map[string]string) Credentials {
	c := NewCredentials(configured, os.Environ())
	c.file, _ = credentialsFile()
	return c
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
	host = normalizeHost(host)
	if t, ok := c.env[host]; ok {
		return t
	}
	if t, ok := c.configured[host]; ok {
		return t
	}
	return c.file[host]
}
