package getproviders

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
)

// LoginServices discovers the services of host that rig login can get an
// API token from: Terraform's login API (login.v1) or its tokens API
// (tfe.v2, whose entry tfe is); an error when it offers neither.
func (c *Client) LoginServices(ctx context.Context, host string) (tfe json.RawMessage, hasTFE bool, ds diag.Diagnostics) {
	services, err := c.HostServices(ctx, host)
	if err != nil {
		return nil, false, diag.Diagnostics{diag.Errorf("Service discovery failed for "+host, "%s", diag.Sentence(err.Error()))}
	}
	_, hasLogin := services["login.v1"]
	tfe, hasTFE = services["tfe.v2"]
	if !hasLogin && !hasTFE {
		return nil, false, diag.Diagnostics{diag.Errorf("Host does not support rig login",
			"The given hostname %q does not support creating API tokens: its service discovery document offers neither login.v1 nor tfe.v2.", host)}
	}
	return tfe, hasTFE, nil
}

// TokenUser asks host's tfe.v2 API (its service discovery entry raw),
// through client, whose token it is: the user's name. An unauthorized
// answer means the token is not valid (rig login checks it so).
func TokenUser(ctx context.Context, client *Client, host string, raw json.RawMessage, token string) (string, diag.Diagnostics) {
	var ds diag.Diagnostics
	base, err := ServiceBase(host, raw)
	if err != nil {
		return "", ds.Append(diag.Errorf("Failed to retrieve user account details", "%s", diag.Sentence(err.Error())))
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	u, _ := base.Parse("account/details")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", ds.Append(diag.Errorf("Failed to retrieve user account details", "%s", err))
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/vnd.api+json")
	resp, err := client.HTTPClient().Do(req)
	if err != nil {
		return "", ds.Append(diag.Errorf("Failed to retrieve user account details", "%s", err))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return "", ds.Append(diag.Errorf("Token is invalid", "%s answered that the token is not valid (401 Unauthorized).", host))
	case resp.StatusCode != http.StatusOK:
		return "", ds.Append(diag.Errorf("Failed to retrieve user account details", "%s answered %s.", u.Redacted(), resp.Status))
	}
	var details struct {
		Data struct {
			Attributes struct {
				Username string `json:"username"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &details); err != nil {
		return "", ds.Append(diag.Errorf("Failed to retrieve user account details", "The answer of %s is not valid JSON: %s.", u.Redacted(), err))
	}
	return details.Data.Attributes.Username, ds
}

// StoreToken records host's API token in the credentials file (rig
// login), keeping what else it holds, written whole (mode 0600, its
// directory created 0700) and renamed into place.
func StoreToken(file, host, token string) error {
	raw, creds, err := readCredentialsFile(file)
	if err != nil {
		return err
	}
	for h := range creds {
		if NormalizeHost(h) == host {
			delete(creds, h)
		}
	}
	creds[host] = map[string]any{"token": token}
	raw["credentials"] = creds
	return writeCredentialsFile(file, raw)
}

// RemoveToken removes host's API token from the credentials file (rig
// logout); it reports whether there was one.
func RemoveToken(file, host string) (bool, error) {
	raw, creds, err := readCredentialsFile(file)
	if err != nil {
		return false, err
	}
	removed := false
	for h := range creds {
		if NormalizeHost(h) == host {
			delete(creds, h)
			removed = true
		}
	}
	if !removed {
		return false, nil
	}
	raw["credentials"] = creds
	return true, writeCredentialsFile(file, raw)
}

// readCredentialsFile reads the credentials file (an empty one when there
// is none): its whole content, and its credentials object.
func readCredentialsFile(file string) (map[string]any, map[string]any, error) {
	raw := map[string]any{}
	src, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, fmt.Errorf("cannot read %s: %w", file, err)
	}
	if len(bytes.TrimSpace(src)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("cannot read %s: %w", file, err)
		}
	}
	creds := map[string]any{}
	if c, ok := raw["credentials"]; ok {
		if creds, ok = c.(map[string]any); !ok {
			return nil, nil, fmt.Errorf("credentials file %s has an invalid value for the \"credentials\" property: it must be a JSON object", file)
		}
	}
	return raw, creds, nil
}

// writeCredentialsFile writes the whole credentials file.
func writeCredentialsFile(file string, raw map[string]any) error {
	src, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".credentials.tfrc.json.tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // once renamed, there is nothing left to remove
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(append(src, '\n'))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
