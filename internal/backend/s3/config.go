package s3

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Defaults, as Terraform and OpenTofu set them.
const (
	// DefaultWorkspaceKeyPrefix is the prefix of non-default workspaces' keys.
	DefaultWorkspaceKeyPrefix = "env:"
	// DefaultMaxRetries is how many times a request is attempted in all.
	DefaultMaxRetries = 5
	// LockFileSuffix names a state's lock object: KEY.tflock.
	LockFileSuffix = ".tflock"
	// DigestSuffix names the DynamoDB item holding a state's MD5:
	// BUCKET/KEY-md5.
	DigestSuffix = "-md5"
)

// Config configures an s3 backend: the settings of a `backend "s3"` block,
// defaults not yet applied (Normalize applies them).
type Config struct {
	Bucket string // bucket, required
	Key    string // key: the default workspace's object, required
	Region string // region; "" takes AWS_REGION or AWS_DEFAULT_REGION
	// WorkspaceKeyPrefix is workspace_key_prefix; nil means
	// DefaultWorkspaceKeyPrefix (an explicit "" puts workspaces at NAME/KEY).
	WorkspaceKeyPrefix *string

	Encrypt  bool   // encrypt: server-side encryption (SSE-S3, or SSE-KMS with KMSKeyID)
	KMSKeyID string // kms_key_id
	// SSECustomerKey is sse_customer_key: a base64 AES-256 key for SSE-C.
	// It is secret: never print it.
	SSECustomerKey string
	ACL            string // acl: the canned ACL of objects written

	Endpoints    Endpoints
	UsePathStyle bool // use_path_style (or the deprecated force_path_style)

	SkipCredentialsValidation bool // skip_credentials_validation: no STS GetCallerIdentity at start
	SkipRegionValidation      bool // skip_region_validation
	SkipRequestingAccountID   bool // skip_requesting_account_id (rig never requests it)
	SkipMetadataAPICheck      bool // skip_metadata_api_check: no EC2 instance metadata credentials
	SkipS3Checksum            bool // skip_s3_checksum: no SHA-256 checksum on uploads

	// AccessKey, SecretKey and Token are static credentials (access_key,
	// secret_key, token); SecretKey and Token are secret.
	AccessKey, SecretKey, Token string
	Profile                     string   // profile
	SharedCredentialsFiles      []string // shared_credentials_files (or shared_credentials_file)
	SharedConfigFiles           []string // shared_config_files
	AssumeRole                  *AssumeRole
	// WebIdentity is assume_role_with_web_identity: a role taken with an
	// OpenID Connect token, whose credentials then sign the requests (or
	// take AssumeRole's role).
	WebIdentity *WebIdentity

	UseLockfile   bool   // use_lockfile: lock with the KEY.tflock object
	DynamoDBTable string // dynamodb_table: lock with an item of this table
	// MaxRetries is max_retries: attempts of a request in all; 0 means
	// DefaultMaxRetries.
	MaxRetries int
	RetryMode  string // retry_mode: "standard" (the default) or "adaptive"

	STSRegion               string   // sts_region: the region of STS calls; "" is Region
	CustomCABundle          string   // custom_ca_bundle: a PEM file of extra root certificates
	EC2MetadataEndpoint     string   // ec2_metadata_service_endpoint
	EC2MetadataEndpointMode string   // ec2_metadata_service_endpoint_mode: IPv4 or IPv6
	AllowedAccountIDs       []string // allowed_account_ids: the credentials' account must be one of them
	ForbiddenAccountIDs     []string // forbidden_account_ids: … and none of these
	// HTTPProxy, HTTPSProxy and NoProxy (http_proxy, https_proxy, no_proxy)
	// replace the proxy environment variables when any is set.
	HTTPProxy, HTTPSProxy, NoProxy string
	Insecure                       bool // insecure: do not verify TLS certificates
	UseFIPSEndpoint                bool // use_fips_endpoint
	UseDualStackEndpoint           bool // use_dualstack_endpoint
}

// Endpoints are custom service endpoints (the endpoints object, or the
// deprecated endpoint, dynamodb_endpoint, sts_endpoint, iam_endpoint
// settings); "" means the service's default for the region, or the
// AWS_ENDPOINT_URL_* environment variables.
type Endpoints struct {
	S3, DynamoDB, STS, IAM string
}

// AssumeRole is the assume_role object: the role whose temporary
// credentials the backend uses, obtained with the configured ones.
type AssumeRole struct {
	RoleARN           string
	SessionName       string
	ExternalID        string
	Duration          time.Duration // 0: the STS default
	Policy            string
	PolicyARNs        []string
	Tags              map[string]string
	TransitiveTagKeys []string
	SourceIdentity    string
}

// WebIdentity is the assume_role_with_web_identity object.
type WebIdentity struct {
	RoleARN     string
	SessionName string
	// Token is the token itself (web_identity_token), a secret; TokenFile
	// the file holding it (web_identity_token_file), read afresh each time
	// credentials are needed. One of them is set.
	Token, TokenFile string
	Duration         time.Duration // 0: the STS default
	Policy           string
	PolicyARNs       []string
}

// Problem is a configuration problem found by ConfigFromSettings or
// Validate, named by the path of the setting it concerns ("bucket",
// "assume_role.duration"; "" for the block as a whole), in the words
// Terraform and OpenTofu use.
type Problem struct {
	Path    string
	Summary string
	Detail  string
	Warning bool
}

// WorkspacePrefix returns the workspace key prefix in effect.
func (c *Config) WorkspacePrefix() string {
	if c.WorkspaceKeyPrefix == nil {
		return DefaultWorkspaceKeyPrefix
	}
	return *c.WorkspaceKeyPrefix
}

// Validate checks a Config as Terraform and OpenTofu do before using it;
// getenv looks up the environment (AWS_REGION, AWS_DEFAULT_REGION,
// AWS_SSE_CUSTOMER_KEY). Problems that are not warnings make the Config
// unusable. Details never include a secret's value.
func (c *Config) Validate(getenv func(string) string) []Problem {
	var ps []Problem
	bad := func(path, summary, detail string) {
		ps = append(ps, Problem{Path: path, Summary: summary, Detail: detail})
	}
	if c.Bucket == "" {
		bad("bucket", "Invalid bucket value", `The "bucket" attribute value must not be empty.`)
	}
	switch {
	case c.Key == "":
		bad("key", "Invalid key value", `The "key" attribute value must not be empty.`)
	case strings.HasPrefix(c.Key, "/") || strings.HasSuffix(c.Key, "/"):
		bad("key", "Invalid key value", `The "key" attribute value must not start or end with with "/".`)
	}
	region := c.Region
	if region == "" {
		region = getenv("AWS_REGION")
	}
	if region == "" {
		region = getenv("AWS_DEFAULT_REGION")
	}
	switch {
	case region == "":
		bad("region", "Missing region value", `The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`)
	case !c.SkipRegionValidation && !regionPattern.MatchString(region):
		bad("region", "Invalid region value", fmt.Sprintf("invalid AWS Region: %s", region))
	}
	if p := c.WorkspacePrefix(); strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		bad("workspace_key_prefix", "Invalid workspace_key_prefix value", `The "workspace_key_prefix" attribute value must not start with "/".`)
	}
	if c.KMSKeyID != "" {
		switch {
		case c.SSECustomerKey != "":
			bad("", "Invalid encryption configuration", encryptionKeyConflict)
		case getenv("AWS_SSE_CUSTOMER_KEY") != "":
			bad("", "Invalid encryption configuration", encryptionKeyConflictEnv)
		}
		if !kmsKeyPattern.MatchString(c.KMSKeyID) {
			bad("kms_key_id", "Invalid KMS Key ID", fmt.Sprintf("Value must be a valid KMS Key ID, got %q", c.KMSKeyID))
		}
	}
	if k := c.SSECustomerKey; k != "" {
		if len(k) != 44 {
			bad("sse_customer_key", "Invalid sse_customer_key value", "sse_customer_key must be 44 characters in length")
		} else if _, err := base64.StdEncoding.DecodeString(k); err != nil {
			bad("sse_customer_key", "Invalid sse_customer_key value", "sse_customer_key must be base64 encoded")
		}
	}
	if r := c.AssumeRole; r != nil {
		if r.RoleARN == "" {
			bad("assume_role.role_arn", "Missing Required Value", `The attribute "assume_role.role_arn" is required by the backend.`)
		}
		if r.Duration != 0 && (r.Duration < 15*time.Minute || r.Duration > 12*time.Hour) {
			bad("assume_role.duration", "Invalid Duration", "Duration must be between 15m0s and 12h0m0s, had "+r.Duration.String())
		}
	}
	switch c.RetryMode {
	case "", "standard", "adaptive":
	default:
		bad("retry_mode", "Invalid retry mode", `Valid values are "standard" and "adaptive".`)
	}
	switch c.EC2MetadataEndpointMode {
	case "", "IPv4", "IPv6":
	default:
		bad("ec2_metadata_service_endpoint_mode", "Invalid Value", `Value must be one of "IPv4" or "IPv6".`)
	}
	if len(c.AllowedAccountIDs) > 0 && len(c.ForbiddenAccountIDs) > 0 {
		bad("", "Invalid Attribute Combination", `Only one of "allowed_account_ids" and "forbidden_account_ids" can be set.`)
	}
	if w := c.WebIdentity; w != nil {
		if w.RoleARN == "" {
			bad("assume_role_with_web_identity.role_arn", "Missing Required Value", `The attribute "assume_role_with_web_identity.role_arn" is required by the backend.`)
		}
		if (w.Token == "") == (w.TokenFile == "") {
			bad("assume_role_with_web_identity", "Invalid Attribute Combination", `Exactly one of "web_identity_token" and "web_identity_token_file" must be set.`)
		}
		if w.Duration != 0 && (w.Duration < 15*time.Minute || w.Duration > 12*time.Hour) {
			bad("assume_role_with_web_identity.duration", "Invalid Duration", "Duration must be between 15m0s and 12h0m0s, had "+w.Duration.String())
		}
	}
	if c.MaxRetries < 0 {
		bad("max_retries", "Invalid max_retries value", "max_retries must not be negative.")
	}
	return ps
}

// ParseDuration reads an assume_role duration as Terraform does: a Go
// duration ("1h", "900s").
func ParseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("the duration %q is not valid: %w", s, err)
	}
	return d, nil
}

// regionPattern accepts the shapes of AWS region names of every partition
// (us-east-1, eu-central-2, us-gov-west-1, cn-north-1, us-isob-east-1…).
var regionPattern = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-\d+$`)

// kmsKeyPattern accepts a key ID, an alias, or an ARN of either.
var kmsKeyPattern = regexp.MustCompile(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32}|alias/[a-zA-Z0-9/_-]+|arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key/.+|alias/.+))$`)

const encryptionKeyConflict = `Only one of "kms_key_id" and "sse_customer_key" can be set: the first selects encryption with a KMS key (SSE-KMS), the second with a key you provide (SSE-C).`

const encryptionKeyConflictEnv = `Only one of "kms_key_id" and the environment variable "AWS_SSE_CUSTOMER_KEY" can be set: the first selects encryption with a KMS key (SSE-KMS), the second with a key you provide (SSE-C).`
