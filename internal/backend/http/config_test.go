package http

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rig-iac/rig/internal/backend/http/stateserver"
)

func TestConfigFromSettings(t *testing.T) {
	tests := []struct {
		name     string
		settings map[string]string
		env      map[string]string
		want     Config
		wantErr  string
	}{
		{
			name:     "defaults",
			settings: map[string]string{"address": "https://s/x"},
			want: Config{Address: "https://s/x", UpdateMethod: "POST", LockMethod: "LOCK", UnlockMethod: "UNLOCK",
				RetryMax: 2, RetryWaitMin: time.Second, RetryWaitMax: 30 * time.Second},
		},
		{
			name: "environment",
			env: map[string]string{"TF_HTTP_ADDRESS": "https://s/x", "TF_HTTP_LOCK_ADDRESS": "https://s/x/lock", "TF_HTTP_UNLOCK_ADDRESS": "https://s/x/lock",
				"TF_HTTP_UPDATE_METHOD": "PUT", "TF_HTTP_LOCK_METHOD": "POST", "TF_HTTP_UNLOCK_METHOD": "DELETE",
				"TF_HTTP_USERNAME": "u", "TF_HTTP_PASSWORD": "p", "TF_HTTP_RETRY_MAX": "5", "TF_HTTP_RETRY_WAIT_MIN": "2", "TF_HTTP_RETRY_WAIT_MAX": "9",
				"TF_HTTP_CLIENT_CA_CERTIFICATE_PEM": "ca", "TF_HTTP_CLIENT_CERTIFICATE_PEM": "cert", "TF_HTTP_CLIENT_PRIVATE_KEY_PEM": "key"},
			want: Config{Address: "https://s/x", LockAddress: "https://s/x/lock", UnlockAddress: "https://s/x/lock",
				UpdateMethod: "PUT", LockMethod: "POST", UnlockMethod: "DELETE", Username: "u", Password: "p",
				RetryMax: 5, RetryWaitMin: 2 * time.Second, RetryWaitMax: 9 * time.Second,
				ClientCACertificatePEM: "ca", ClientCertificatePEM: "cert", ClientPrivateKeyPEM: "key"},
		},
		{
			name:     "settings win over the environment",
			settings: map[string]string{"address": "https://s/a", "retry_max": "0", "skip_cert_verification": "true", "headers": `{"X-A":"1"}`},
			env:      map[string]string{"TF_HTTP_ADDRESS": "https://s/b", "TF_HTTP_RETRY_MAX": "7"},
			want: Config{Address: "https://s/a", UpdateMethod: "POST", LockMethod: "LOCK", UnlockMethod: "UNLOCK", SkipCertVerification: true,
				Headers: map[string]string{"X-A": "1"}, RetryMax: 0, RetryWaitMin: time.Second, RetryWaitMax: 30 * time.Second},
		},
		{name: "unknown setting", settings: map[string]string{"adress": "x"}, wantErr: `the http backend has no setting named "adress"`},
		{name: "bad number", settings: map[string]string{"retry_max": "many"}, wantErr: `retry_max: "many" is not a whole number`},
		{name: "bad number from the environment", env: map[string]string{"TF_HTTP_RETRY_WAIT_MIN": "1.5"}, wantErr: `TF_HTTP_RETRY_WAIT_MIN: "1.5" is not a whole number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromSettings(tt.settings, func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Config{}, "Sleep")); d != "" {
				t.Errorf("Config (-want +got):\n%s", d)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	ok := Config{Address: "https://s/x"}
	with := func(f func(*Config)) Config { c := ok; f(&c); return c }
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no address", Config{}, `the http backend needs an address: set "address" in the backend block, or TF_HTTP_ADDRESS`},
		{"not http", Config{Address: "ftp://s/x"}, "address must be HTTP or HTTPS"},
		{"lock address not http", with(func(c *Config) { c.LockAddress = "s3://b" }), "lockAddress must be HTTP or HTTPS"},
		{"unparsable, password kept out", Config{Address: "http://u:pw-secret@[::1/x"}, "failed to parse address URL"},
		{"reserved header", with(func(c *Config) { c.Headers = map[string]string{"Content-Type": "text/plain"} }), `headers "Content-Type" is reserved`},
		{"authorization with username", with(func(c *Config) { c.Username = "u"; c.Headers = map[string]string{"Authorization": "Bearer x"} }),
			`headers "Authorization" cannot be set when providing username`},
		{"bad header name", with(func(c *Config) { c.Headers = map[string]string{"X Y": "1"} }), `headers "X Y" name must not be empty and only contain A-Za-z0-9-_ characters`},
		{"empty header value", with(func(c *Config) { c.Headers = map[string]string{"X-Y": " "} }), `headers "X-Y" value must not be empty and only contain ascii characters`},
		{"certificate without key", with(func(c *Config) { c.ClientCertificatePEM = "c" }), "client_certificate_pem is set but client_private_key_pem is not"},
		{"key without certificate", with(func(c *Config) { c.ClientPrivateKeyPEM = "k" }), "client_private_key_pem is set but client_certificate_pem is not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, want an error with %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "pw-secret") {
				t.Errorf("the password shows in %q", err)
			}
		})
	}
	if _, err := New(with(func(c *Config) { c.Headers = map[string]string{"Authorization": "Bearer x", "X-Y": "1"} })); err != nil {
		t.Errorf("New with headers: %v", err)
	}
}

// TestTLSFailures: a server certificate the client does not trust, or no
// client certificate, fail at once, without retries.
func TestTLSFailures(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{TLS: true})
	other := stateserver.Start(t, stateserver.Options{TLS: true}) // another CA
	tests := []struct {
		name string
		cfg  func(c *Config)
		want string
		// retried: the server rejected the handshake, which may be
		// passing; a certificate the client rejects is not retried.
		retried bool
	}{
		{"system roots", func(c *Config) { c.ClientCertificatePEM, c.ClientPrivateKeyPEM = srv.ClientCert, srv.ClientKey }, "certificate", false},
		{"another CA", func(c *Config) {
			c.ClientCACertificatePEM = other.CA
			c.ClientCertificatePEM, c.ClientPrivateKeyPEM = srv.ClientCert, srv.ClientKey
		}, "certificate", false},
		{"no client certificate", func(c *Config) { c.ClientCACertificatePEM = srv.CA }, "certificate", true},
		{"a client certificate another CA signed", func(c *Config) {
			c.ClientCACertificatePEM = srv.CA
			c.ClientCertificatePEM, c.ClientPrivateKeyPEM = other.ClientCert, other.ClientKey
		}, "certificate", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ns noSleep
			cfg := Config{Address: srv.URL + "/s", RetryMax: 2, RetryWaitMin: time.Second, RetryWaitMax: time.Second, Sleep: ns.sleep}
			tt.cfg(&cfg)
			_, err := openStore(t, newBackend(t, cfg)).Read(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Read = %v, want an error about the %s", err, tt.want)
			}
			if want := map[bool]int{true: 2, false: 0}[tt.retried]; len(ns.waits) != want {
				t.Errorf("retried %d times, want %d", len(ns.waits), want)
			}
		})
	}
	// skip_cert_verification accepts the server, the client certificate
	// still needed.
	cfg := Config{Address: srv.URL + "/s", SkipCertVerification: true, ClientCertificatePEM: srv.ClientCert, ClientPrivateKeyPEM: srv.ClientKey}
	if _, err := openStore(t, newBackend(t, cfg)).Read(context.Background()); err != nil {
		t.Errorf("with skip_cert_verification: %v", err)
	}
	if _, err := New(Config{Address: srv.URL, ClientCACertificatePEM: "not a PEM"}); err == nil || !strings.Contains(err.Error(), "failed to append certs") {
		t.Errorf("New with a bad CA = %v", err)
	}
}
