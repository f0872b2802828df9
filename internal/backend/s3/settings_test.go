package s3

import (
	"strings"
	"testing"
)

// TestSettingProblems: problems with the values are problems naming the
// setting, without the secrets.
func TestSettingProblems(t *testing.T) {
	secret := strings.Repeat("Zm9v", 11) // 44 base64 characters
	tests := []struct {
		name     string
		settings map[string]string
		want     string
	}{
		{"missing bucket", map[string]string{"key": "k", "region": "us-east-1"}, `The "bucket" attribute value must not be empty`},
		{"missing region", map[string]string{"bucket": "b", "key": "k"}, `Missing region value`},
		{"kms and customer key", map[string]string{"bucket": "b", "key": "k", "region": "us-east-1", "kms_key_id": "alias/x", "sse_customer_key": secret}, `Only one of "kms_key_id" and "sse_customer_key"`},
		{"endpoint twice", map[string]string{"bucket": "b", "key": "k", "region": "us-east-1", "endpoint": "a", "endpoints": `{"s3":"b"}`}, `Only one of "endpoint" and "endpoints.s3"`},
		{"sso endpoint", map[string]string{"bucket": "b", "key": "k", "region": "us-east-1", "endpoints": `{"sso":"https://sso.local"}`}, `rig does not support the s3 backend's "endpoints.sso" setting yet`},
		{"web identity without a token", map[string]string{"bucket": "b", "key": "k", "region": "us-east-1", "assume_role_with_web_identity": `{"role_arn":"r"}`}, `Exactly one of "web_identity_token" and "web_identity_token_file"`},
		{"assume_role both ways", map[string]string{"bucket": "b", "key": "k", "region": "us-east-1", "role_arn": "r", "assume_role": `{"role_arn":"r"}`}, `conflict with the "assume_role" setting`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := ConfigFromSettings(tt.settings, func(string) string { return "" })
			var text []string
			for _, p := range ps {
				text = append(text, p.Summary+": "+p.Detail)
			}
			all := strings.Join(text, "\n")
			if !hasErrors(ps) || !strings.Contains(all, tt.want) {
				t.Fatalf("problems %q, want %q", all, tt.want)
			}
			if strings.Contains(all, secret) {
				t.Errorf("a problem shows the customer key")
			}
		})
	}
}
