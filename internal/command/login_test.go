package command

import (
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loginServer is a host that offers the services listed in its discovery
// document; its tfe.v2 API knows one token, of user alice.
func loginServer(t *testing.T, services string) (host string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(services))
	})
	mux.HandleFunc("/api/v2/account/details", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good-token-123" {
			http.Error(w, `{"errors":[{"status":"401","title":"unauthorized"}]}`, http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"data":{"id":"user-1","type":"users","attributes":{"username":"alice"}}}`))
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	certFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", certFile)
	return srv.Listener.Addr().String()
}

// storedTokens reads the credentials file under home: host to token.
func storedTokens(t *testing.T, home string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".terraform.d", "credentials.tfrc.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Credentials map[string]struct {
			Token string `json:"token"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("credentials file: %v\n%s", err, b)
	}
	out := map[string]string{}
	for h, c := range f.Credentials {
		out[h] = c.Token
	}
	return out
}

// login asks for approval and a token, checks the token with the host's
// tfe.v2 API, and stores it in ~/.terraform.d/credentials.tfrc.json (0600,
// in a 0700 directory) beside the tokens already there, never showing it;
// logout removes it.
func TestLoginAndLogout(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	host := loginServer(t, `{"tfe.v2":"/api/v2/","login.v1":{"client":"terraform-cli","grant_types":["authz_code"],"authz":"/oauth/authorization","token":"/oauth/token","ports":[10000,10010]}}`)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".terraform.d"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".terraform.d"), "credentials.tfrc.json", `{"credentials":{"other.example.com":{"token":"keep-me"}}}`)

	r := rigInput(t, dir, "yes\nbad-token\n", "login", "-no-color", host)
	if r.code != 1 || !strings.Contains(r.stderr, "Token is invalid") {
		t.Fatalf("login with a bad token: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := storedTokens(t, home); len(got) != 1 {
		t.Errorf("a bad token was stored: %v", got)
	}

	r = rigInput(t, dir, "yes\n  good-token-123  \n", "login", "-no-color", host)
	if r.code != 0 {
		t.Fatalf("login: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "login output", r.stdout, "Do you want to proceed?", "/app/settings/tokens?source=terraform-login", "Token for "+host+":", "Retrieved token for user alice", "Success! rig has obtained and saved an API token.")
	if strings.Contains(r.stdout+r.stderr, "good-token") {
		t.Errorf("login shows the token:\n%s%s", r.stdout, r.stderr)
	}
	got := storedTokens(t, home)
	if got[host] != "good-token-123" || got["other.example.com"] != "keep-me" {
		t.Errorf("stored tokens: %v", got)
	}
	for path, want := range map[string]os.FileMode{
		filepath.Join(home, ".terraform.d", "credentials.tfrc.json"): 0o600,
	} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %v", path, fi.Mode().Perm(), err, want)
		}
	}

	r = rig(t, dir, "logout", "-no-color", host)
	if r.code != 0 || !strings.Contains(r.stdout, "Success! rig has removed the stored API token for "+host) {
		t.Fatalf("logout: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := storedTokens(t, home); got[host] != "" || got["other.example.com"] != "keep-me" {
		t.Errorf("after logout: %v", got)
	}
	r = rig(t, dir, "logout", "-no-color", host)
	if r.code != 0 || !strings.Contains(r.stdout, "No credentials for "+host+" are stored.") {
		t.Errorf("second logout: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A host that offers only an OAuth login (login.v1) takes a token pasted
// at the prompt, where Terraform would open a browser; the credentials
// directory is created readable by its owner only.
func TestLoginWithoutBrowser(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	host := loginServer(t, `{"login.v1":{"client":"terraform-cli","grant_types":["authz_code"],"authz":"/oauth/authorization","token":"/oauth/token","ports":[10000,10010]},"modules.v1":"/v1/modules/"}`)
	dir := t.TempDir()
	r := rigInput(t, dir, "yes\npasted-token\n", "login", "-no-color", host)
	if r.code != 0 || !strings.Contains(r.stdout, "which rig does not open") {
		t.Fatalf("login: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := storedTokens(t, home); got[host] != "pasted-token" {
		t.Errorf("stored tokens: %v", got)
	}
	if fi, err := os.Stat(filepath.Join(home, ".terraform.d")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("credentials directory mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}
}

// login refuses what it cannot do, saying why: without input, when the
// answer is not yes, for a host that offers no login, and for a host
// whose credentials the CLI configuration sets.
func TestLoginRefused(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	host := loginServer(t, `{"tfe.v2":"/api/v2/"}`)
	dir := t.TempDir()
	cases := []struct {
		name, input string
		args        []string
		want        string
	}{
		{"no input", "", []string{"login", "-input=false", host}, "Login is an interactive command"},
		{"not confirmed", "no\n", []string{"login", host}, "Login cancelled"},
		{"bad host", "", []string{"login", "https://" + host}, "Invalid hostname"},
		{"two hosts", "", []string{"login", host, host}, "expects exactly one argument"},
	}
	for _, tc := range cases {
		r := rigInput(t, dir, tc.input, append(tc.args, "-no-color")...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, want %q\n%s%s", tc.name, r.code, tc.want, r.stdout, r.stderr)
		}
	}
	noLogin := loginServer(t, `{"modules.v1":"/v1/modules/"}`)
	if r := rigInput(t, dir, "yes\n", "login", "-no-color", noLogin); r.code != 1 || !strings.Contains(r.stderr, "Host does not support rig login") {
		t.Errorf("host without login: exit %d\n%s", r.code, r.stderr)
	}
	cfg := filepath.Join(t.TempDir(), "rc.tfrc")
	writeFile(t, filepath.Dir(cfg), filepath.Base(cfg), "credentials \""+host+"\" {\n  token = \"manual\"\n}\n")
	t.Setenv("TF_CLI_CONFIG_FILE", cfg)
	for _, cmd := range []string{"login", "logout"} {
		if r := rigInput(t, dir, "yes\n", cmd, "-no-color", host); r.code != 1 || !strings.Contains(r.stderr, "are manually configured") {
			t.Errorf("%s with credentials in the CLI configuration: exit %d\n%s", cmd, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".terraform.d", "credentials.tfrc.json")); err == nil {
		t.Errorf("a refused login wrote the credentials file")
	}
}
