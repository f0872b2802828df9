package s3

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/s3/s3test"
)

// TestCredentialChain: the credentials that sign the requests come from
// the settings, the environment, a profile of the shared files, or a role
// assumed with any of them; and STS checks them unless told not to.
func TestCredentialChain(t *testing.T) {
	dir := t.TempDir()
	credsFile := filepath.Join(dir, "credentials")
	configFile := filepath.Join(dir, "config")
	if err := os.WriteFile(credsFile, []byte("[default]\naws_access_key_id = AKIDFILEDEFAULT\naws_secret_access_key = s\n\n[team]\naws_access_key_id = AKIDFILETEAM\naws_secret_access_key = s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(configFile, []byte("[profile team]\nregion = us-east-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("token-from-file"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Nothing from the machine running the test.
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE"} {
		t.Setenv(v, "")
	}
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", empty)
	t.Setenv("AWS_CONFIG_FILE", empty)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	tests := []struct {
		name      string
		env       map[string]string
		modify    func(*Config)
		wantS3    string   // the key signing S3 requests
		wantSTS   []string // the STS calls, "Action:key"
		wantErr   string
		checkCall func(t *testing.T, c s3test.STSCall)
	}{
		{name: "static", modify: func(c *Config) { c.AccessKey, c.SecretKey = "AKIDSTATIC", "s" }, wantS3: "AKIDSTATIC"},
		{name: "environment", env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s"}, wantS3: "AKIDENV"},
		{name: "shared files, default profile", modify: func(c *Config) { c.SharedCredentialsFiles = []string{credsFile} }, wantS3: "AKIDFILEDEFAULT"},
		{name: "shared files, named profile", modify: func(c *Config) {
			c.SharedCredentialsFiles, c.SharedConfigFiles, c.Profile = []string{credsFile}, []string{configFile}, "team"
		}, wantS3: "AKIDFILETEAM"},
		{name: "profile from AWS_PROFILE", env: map[string]string{"AWS_PROFILE": "team"}, modify: func(c *Config) { c.SharedCredentialsFiles = []string{credsFile} }, wantS3: "AKIDFILETEAM"},
		{name: "static beats environment", env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s"},
			modify: func(c *Config) { c.AccessKey, c.SecretKey = "AKIDSTATIC", "s" }, wantS3: "AKIDSTATIC"},
		{name: "assume_role", modify: func(c *Config) {
			c.AccessKey, c.SecretKey = "AKIDBASE", "s"
			c.AssumeRole = &AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/state", SessionName: "rig-test", ExternalID: "ext", Duration: time.Hour}
		}, wantS3: s3test.TempAccessKey, wantSTS: []string{"AssumeRole:AKIDBASE"}, checkCall: func(t *testing.T, c s3test.STSCall) {
			for k, v := range map[string]string{"RoleArn": "arn:aws:iam::123456789012:role/state", "RoleSessionName": "rig-test", "ExternalId": "ext", "DurationSeconds": "3600"} {
				if got := c.Params.Get(k); got != v {
					t.Errorf("AssumeRole %s = %q, want %q", k, got, v)
				}
			}
		}},
		{name: "web identity token file", modify: func(c *Config) {
			c.WebIdentity = &WebIdentity{RoleARN: "arn:aws:iam::123456789012:role/ci", SessionName: "ci-run", TokenFile: tokenFile}
		}, wantS3: s3test.TempAccessKey, wantSTS: []string{"AssumeRoleWithWebIdentity:"}, checkCall: func(t *testing.T, c s3test.STSCall) {
			for k, v := range map[string]string{"RoleArn": "arn:aws:iam::123456789012:role/ci", "RoleSessionName": "ci-run", "WebIdentityToken": "token-from-file"} {
				if got := c.Params.Get(k); got != v {
					t.Errorf("AssumeRoleWithWebIdentity %s = %q, want %q", k, got, v)
				}
			}
		}},
		{name: "web identity token, then assume_role", modify: func(c *Config) {
			c.WebIdentity = &WebIdentity{RoleARN: "arn:aws:iam::123456789012:role/ci", Token: "inline-token"}
			c.AssumeRole = &AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/state"}
		}, wantS3: s3test.TempAccessKey, wantSTS: []string{"AssumeRoleWithWebIdentity:", "AssumeRole:" + s3test.TempAccessKey}, checkCall: func(t *testing.T, c s3test.STSCall) {
			if got := c.Params.Get("WebIdentityToken"); got != "inline-token" {
				t.Errorf("WebIdentityToken = %q", got)
			}
		}},
		{name: "credentials validated", modify: func(c *Config) {
			c.AccessKey, c.SecretKey, c.SkipCredentialsValidation = "AKIDSTATIC", "s", false
		}, wantS3: "AKIDSTATIC", wantSTS: []string{"GetCallerIdentity:AKIDSTATIC"}},
		{name: "allowed account", modify: func(c *Config) {
			c.AccessKey, c.SecretKey, c.AllowedAccountIDs = "AKIDSTATIC", "s", []string{s3test.Account}
		}, wantS3: "AKIDSTATIC", wantSTS: []string{"GetCallerIdentity:AKIDSTATIC"}},
		{name: "forbidden account", modify: func(c *Config) {
			c.AccessKey, c.SecretKey, c.ForbiddenAccountIDs = "AKIDSTATIC", "s", []string{s3test.Account}
		}, wantErr: "AWS account ID not allowed: " + s3test.Account},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			srv := s3test.NewS3(t, "state")
			sts := s3test.NewSTS(t)
			cfg := testConfig(srv, nil, true)
			cfg.AccessKey, cfg.SecretKey = "", ""
			cfg.Endpoints.STS = sts.URL
			if tt.modify != nil {
				tt.modify(&cfg)
			}
			b, err := New(context.Background(), cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("New = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			s, _ := b.Store(context.Background(), backend.DefaultWorkspace)
			if err := s.Write(context.Background(), []byte("{}")); err != nil {
				t.Fatal(err)
			}
			keys := srv.AccessKeys()
			if len(keys) == 0 || slices.ContainsFunc(keys, func(k string) bool { return k != tt.wantS3 }) {
				t.Errorf("S3 requests signed by %q, want all by %q", keys, tt.wantS3)
			}
			var calls []string
			for _, c := range sts.Calls() {
				calls = append(calls, c.Action+":"+c.AccessKey)
			}
			if !slices.Equal(calls, tt.wantSTS) {
				t.Errorf("STS calls %q, want %q", calls, tt.wantSTS)
			}
			if tt.checkCall != nil && len(sts.Calls()) > 0 {
				tt.checkCall(t, sts.Calls()[0])
			}
		})
	}
}
