package s3

import (
	"strings"
	"testing"
	"time"
)

// TestValidate: each invalid configuration is reported on the setting at
// fault, in Terraform's words, and the secret key is never in a message.
func TestValidate(t *testing.T) {
	valid := func() Config { return Config{Bucket: "b", Key: "k/terraform.tfstate", Region: "eu-west-1"} }
	tests := []struct {
		name    string
		modify  func(*Config)
		env     map[string]string
		path    string // "" with summary "": no problem
		summary string
	}{
		{"valid", func(*Config) {}, nil, "", ""},
		{"no bucket", func(c *Config) { c.Bucket = "" }, nil, "bucket", "Invalid bucket value"},
		{"no key", func(c *Config) { c.Key = "" }, nil, "key", "Invalid key value"},
		{"key with leading slash", func(c *Config) { c.Key = "/a" }, nil, "key", "Invalid key value"},
		{"key with trailing slash", func(c *Config) { c.Key = "a/" }, nil, "key", "Invalid key value"},
		{"no region", func(c *Config) { c.Region = "" }, nil, "region", "Missing region value"},
		{"region from AWS_REGION", func(c *Config) { c.Region = "" }, map[string]string{"AWS_REGION": "us-east-2"}, "", ""},
		{"region from AWS_DEFAULT_REGION", func(c *Config) { c.Region = "" }, map[string]string{"AWS_DEFAULT_REGION": "us-east-2"}, "", ""},
		{"invalid region", func(c *Config) { c.Region = "moon-1" }, nil, "region", "Invalid region value"},
		{"invalid region, not validated", func(c *Config) { c.Region, c.SkipRegionValidation = "moon-1", true }, nil, "", ""},
		{"prefix with slash", func(c *Config) { c.WorkspaceKeyPrefix = ptr("/x") }, nil, "workspace_key_prefix", "Invalid workspace_key_prefix value"},
		{"kms and sse-c", func(c *Config) { c.KMSKeyID, c.SSECustomerKey = "alias/x", strings.Repeat("A", 44) }, nil, "", "Invalid encryption configuration"},
		{"kms and AWS_SSE_CUSTOMER_KEY", func(c *Config) { c.KMSKeyID = "alias/x" }, map[string]string{"AWS_SSE_CUSTOMER_KEY": "k"}, "", "Invalid encryption configuration"},
		{"bad kms key", func(c *Config) { c.KMSKeyID = "nope" }, nil, "kms_key_id", "Invalid KMS Key ID"},
		{"short customer key", func(c *Config) { c.SSECustomerKey = "c2VjcmV0" }, nil, "sse_customer_key", "Invalid sse_customer_key value"},
		{"customer key not base64", func(c *Config) { c.SSECustomerKey = strings.Repeat("!", 44) }, nil, "sse_customer_key", "Invalid sse_customer_key value"},
		{"assume_role without role_arn", func(c *Config) { c.AssumeRole = &AssumeRole{SessionName: "s"} }, nil, "assume_role.role_arn", "Missing Required Value"},
		{"assume_role duration too short", func(c *Config) {
			c.AssumeRole = &AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/r", Duration: time.Minute}
		}, nil, "assume_role.duration", "Invalid Duration"},
		{"web identity without a token", func(c *Config) { c.WebIdentity = &WebIdentity{RoleARN: "arn:aws:iam::123456789012:role/r"} }, nil, "assume_role_with_web_identity", "Invalid Attribute Combination"},
		{"web identity with both tokens", func(c *Config) {
			c.WebIdentity = &WebIdentity{RoleARN: "arn:aws:iam::123456789012:role/r", Token: "t", TokenFile: "f"}
		}, nil, "assume_role_with_web_identity", "Invalid Attribute Combination"},
		{"web identity without role", func(c *Config) { c.WebIdentity = &WebIdentity{TokenFile: "f"} }, nil, "assume_role_with_web_identity.role_arn", "Missing Required Value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := valid()
			tt.modify(&c)
			ps := c.Validate(func(k string) string { return tt.env[k] })
			if tt.summary == "" {
				if len(ps) != 0 {
					t.Fatalf("problems %+v, want none", ps)
				}
				return
			}
			if len(ps) != 1 || ps[0].Path != tt.path || ps[0].Summary != tt.summary {
				t.Fatalf("problems %+v, want one %q at %q", ps, tt.summary, tt.path)
			}
			if c.SSECustomerKey != "" && strings.Contains(ps[0].Detail, c.SSECustomerKey) {
				t.Errorf("the detail shows the customer key: %s", ps[0].Detail)
			}
		})
	}
}
