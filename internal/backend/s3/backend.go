package s3

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
	"github.com/rig-iac/rig/internal/backend"
	"golang.org/x/net/http/httpproxy"
)

// Backend is the s3 backend. It is safe for concurrent use.
type Backend struct {
	cfg    Config
	prefix string // the workspace key prefix in effect
	s3     *s3.Client
	dyn    *dynamodb.Client // nil without a DynamoDB table

	// consistencyWait is how long Read retries while the object does not
	// match the digest recorded in DynamoDB; consistencyPoll is the pause
	// between tries.
	consistencyWait, consistencyPoll time.Duration
}

var _ backend.Backend = (*Backend)(nil)

// New builds the AWS clients a Config describes (credentials from the
// settings, the environment, the shared files and profile, then an
// assumed role), checks the credentials with STS unless told not to, and
// checks that the DynamoDB table exists when one is configured. The caller
// validates cfg first (Config.Validate).
func New(ctx context.Context, cfg Config) (*Backend, error) {
	awsCfg, err := loadAWSConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("s3 backend: %w", err)
	}
	b := &Backend{
		cfg:             cfg,
		prefix:          cfg.WorkspacePrefix(),
		consistencyWait: 10 * time.Second,
		consistencyPoll: 2 * time.Second,
	}
	b.s3 = s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.Endpoints.S3 != "" {
			o.BaseEndpoint = aws.String(withScheme(cfg.Endpoints.S3))
		}
		o.UsePathStyle = cfg.UsePathStyle
		if cfg.SkipS3Checksum {
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
	})
	if cfg.DynamoDBTable != "" {
		b.dyn = dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
			if cfg.Endpoints.DynamoDB != "" {
				o.BaseEndpoint = aws.String(withScheme(cfg.Endpoints.DynamoDB))
			}
		})
	}
	if !cfg.SkipCredentialsValidation || len(cfg.AllowedAccountIDs) > 0 || len(cfg.ForbiddenAccountIDs) > 0 {
		id, err := stsClient(awsCfg, cfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if err != nil {
			return nil, fmt.Errorf("s3 backend: validating the credentials with STS: %w", err)
		}
		account := aws.ToString(id.Account)
		if len(cfg.AllowedAccountIDs) > 0 && !slices.Contains(cfg.AllowedAccountIDs, account) {
			return nil, fmt.Errorf("s3 backend: AWS account ID not allowed: %s", account)
		}
		if slices.Contains(cfg.ForbiddenAccountIDs, account) {
			return nil, fmt.Errorf("s3 backend: AWS account ID not allowed: %s", account)
		}
	}
	if err := b.checkBucket(ctx); err != nil {
		return nil, fmt.Errorf("s3 backend: %w", err)
	}
	if b.dyn != nil {
		if err := b.checkTable(ctx); err != nil {
			return nil, fmt.Errorf("s3 backend: %w", err)
		}
	}
	return b, nil
}

// loadAWSConfig resolves the region, credentials and retries.
func loadAWSConfig(ctx context.Context, cfg Config) (aws.Config, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRetryMaxAttempts(cmpOr(cfg.MaxRetries, DefaultMaxRetries)),
		// Errors are returned; the SDK's own warnings would interleave with
		// rig's output.
		config.WithLogger(logging.Nop{}),
	}
	if cfg.Region != "" {
		opts = append(opts, config.WithRegion(cfg.Region))
	}
	if cfg.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(cfg.Profile))
	}
	if len(cfg.SharedCredentialsFiles) > 0 {
		opts = append(opts, config.WithSharedCredentialsFiles(expandHome(cfg.SharedCredentialsFiles)))
	}
	if len(cfg.SharedConfigFiles) > 0 {
		opts = append(opts, config.WithSharedConfigFiles(expandHome(cfg.SharedConfigFiles)))
	}
	if cfg.AccessKey != "" || cfg.SecretKey != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, cfg.Token)))
	}
	if cfg.SkipMetadataAPICheck {
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	if cfg.EC2MetadataEndpoint != "" {
		opts = append(opts, config.WithEC2IMDSEndpoint(cfg.EC2MetadataEndpoint))
	}
	if cfg.EC2MetadataEndpointMode == "IPv6" {
		opts = append(opts, config.WithEC2IMDSEndpointMode(imds.EndpointModeStateIPv6))
	}
	if cfg.RetryMode != "" {
		opts = append(opts, config.WithRetryMode(aws.RetryMode(cfg.RetryMode)))
	}
	if cfg.UseFIPSEndpoint {
		opts = append(opts, config.WithUseFIPSEndpoint(aws.FIPSEndpointStateEnabled))
	}
	if cfg.UseDualStackEndpoint {
		opts = append(opts, config.WithUseDualStackEndpoint(aws.DualStackEndpointStateEnabled))
	}
	if cfg.CustomCABundle != "" {
		pem, err := os.ReadFile(expandHome([]string{cfg.CustomCABundle})[0])
		if err != nil {
			return aws.Config{}, fmt.Errorf("reading custom_ca_bundle: %w", err)
		}
		opts = append(opts, config.WithCustomCABundle(bytes.NewReader(pem)))
	}
	if cfg.Insecure || cfg.HTTPProxy != "" || cfg.HTTPSProxy != "" || cfg.NoProxy != "" {
		opts = append(opts, config.WithHTTPClient(httpClient(cfg)))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading the AWS configuration: %w", err)
	}
	if awsCfg.Region == "" {
		return aws.Config{}, errors.New(`no region: set "region" or AWS_REGION`)
	}
	if w := cfg.WebIdentity; w != nil {
		var token stscreds.IdentityTokenRetriever = stscreds.IdentityTokenFile(w.TokenFile)
		if w.Token != "" {
			token = staticToken(w.Token)
		}
		provider := stscreds.NewWebIdentityRoleProvider(stsClient(awsCfg, cfg), w.RoleARN, token, func(o *stscreds.WebIdentityRoleOptions) {
			o.RoleSessionName = w.SessionName
			o.Duration = w.Duration
			if w.Policy != "" {
				o.Policy = aws.String(strings.TrimSpace(w.Policy))
			}
			for _, arn := range w.PolicyARNs {
				o.PolicyARNs = append(o.PolicyARNs, ststypes.PolicyDescriptorType{Arn: aws.String(arn)})
			}
		})
		awsCfg.Credentials = aws.NewCredentialsCache(provider)
	}
	if r := cfg.AssumeRole; r != nil {
		provider := stscreds.NewAssumeRoleProvider(stsClient(awsCfg, cfg), r.RoleARN, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = r.SessionName
			o.Duration = r.Duration
			if r.ExternalID != "" {
				o.ExternalID = aws.String(r.ExternalID)
			}
			if r.Policy != "" {
				o.Policy = aws.String(strings.TrimSpace(r.Policy))
			}
			if r.SourceIdentity != "" {
				o.SourceIdentity = aws.String(r.SourceIdentity)
			}
			for _, arn := range r.PolicyARNs {
				o.PolicyARNs = append(o.PolicyARNs, ststypes.PolicyDescriptorType{Arn: aws.String(arn)})
			}
			for k, v := range r.Tags {
				o.Tags = append(o.Tags, ststypes.Tag{Key: aws.String(k), Value: aws.String(v)})
			}
			o.TransitiveTagKeys = r.TransitiveTagKeys
		})
		awsCfg.Credentials = aws.NewCredentialsCache(provider)
	}
	return awsCfg, nil
}

// staticToken is a web identity token given in the configuration.
type staticToken string

func (t staticToken) GetIdentityToken() ([]byte, error) { return []byte(t), nil }

func stsClient(awsCfg aws.Config, cfg Config) *sts.Client {
	return sts.NewFromConfig(awsCfg, func(o *sts.Options) {
		if cfg.Endpoints.STS != "" {
			o.BaseEndpoint = aws.String(withScheme(cfg.Endpoints.STS))
		}
		if cfg.STSRegion != "" {
			o.Region = cfg.STSRegion
		}
	})
}

// httpClient is the SDK's HTTP client with the configured proxies and
// certificate checking.
func httpClient(cfg Config) *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		if cfg.Insecure {
			if tr.TLSClientConfig == nil {
				tr.TLSClientConfig = &tls.Config{}
			}
			tr.TLSClientConfig.InsecureSkipVerify = true
		}
		if cfg.HTTPProxy != "" || cfg.HTTPSProxy != "" || cfg.NoProxy != "" {
			proxy := (&httpproxy.Config{HTTPProxy: cfg.HTTPProxy, HTTPSProxy: cfg.HTTPSProxy, NoProxy: cfg.NoProxy}).ProxyFunc()
			tr.Proxy = func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }
		}
	})
}

// withScheme adds https:// to an endpoint given without a scheme, as
// Terraform does.
func withScheme(endpoint string) string {
	if strings.Contains(endpoint, "://") {
		return endpoint
	}
	return "https://" + endpoint
}

// expandHome replaces a leading ~ with the home directory.
func expandHome(paths []string) []string {
	home, err := os.UserHomeDir()
	out := make([]string, len(paths))
	for i, p := range paths {
		if err == nil && (p == "~" || strings.HasPrefix(p, "~/")) {
			p = filepath.Join(home, p[1:])
		}
		out[i] = p
	}
	return out
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Config returns the backend's configuration.
func (b *Backend) Config() Config { return b.cfg }

// objectKey is the key of a workspace's state object.
func (b *Backend) objectKey(workspace string) string {
	if workspace == backend.DefaultWorkspace {
		return b.cfg.Key
	}
	if b.prefix == "" {
		return workspace + "/" + b.cfg.Key
	}
	return b.prefix + "/" + workspace + "/" + b.cfg.Key
}

// workspaceOf returns the workspace whose state (or lock) object key is,
// or "" when key is neither.
func (b *Backend) workspaceOf(key string) string {
	if b.prefix != "" {
		rest, ok := strings.CutPrefix(key, b.prefix+"/")
		if !ok {
			return ""
		}
		key = rest
	}
	name, rest, ok := strings.Cut(key, "/")
	if !ok || name == "" || (rest != b.cfg.Key && rest != b.cfg.Key+LockFileSuffix) {
		return ""
	}
	return name
}

// Workspaces implements backend.Backend: "default" and every workspace
// with a state object (or a lock object) under the prefix. A listing
// refused with AccessDenied yields just "default", as in Terraform.
func (b *Backend) Workspaces(ctx context.Context) ([]string, error) {
	prefix := ""
	if b.prefix != "" {
		prefix = b.prefix + "/"
	}
	names := []string{backend.DefaultWorkspace}
	p := s3.NewListObjectsV2Paginator(b.s3, &s3.ListObjectsV2Input{Bucket: aws.String(b.cfg.Bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			var api smithy.APIError
			if errors.As(err, &api) && api.ErrorCode() == "AccessDenied" {
				break
			}
			return nil, fmt.Errorf("listing workspaces in s3://%s/%s: %w", b.cfg.Bucket, prefix, bucketError(err))
		}
		for _, obj := range page.Contents {
			if ws := b.workspaceOf(aws.ToString(obj.Key)); ws != "" && ws != backend.DefaultWorkspace && !slices.Contains(names, ws) {
				names = append(names, ws)
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// DeleteWorkspace implements backend.Backend: it deletes the workspace's
// state object and, with a DynamoDB table, its digest item.
func (b *Backend) DeleteWorkspace(ctx context.Context, name string) error {
	if name == backend.DefaultWorkspace {
		return backend.ErrDefaultWorkspace
	}
	if err := backend.ValidateWorkspaceName(name); err != nil {
		return err
	}
	s := b.store(name)
	exists, err := s.exists(ctx)
	if err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	if !exists {
		return fmt.Errorf("deleting workspace %q: %w", name, backend.ErrWorkspaceNotFound)
	}
	if _, err := b.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(b.cfg.Bucket), Key: aws.String(s.key)}); err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	if b.dyn != nil {
		if err := s.deleteDigest(ctx); err != nil {
			return fmt.Errorf("deleting workspace %q: removing its digest: %w", name, err)
		}
	}
	if err := s.Journal().Discard(ctx); err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	return nil
}

// Store implements backend.Backend. It makes no request.
func (b *Backend) Store(ctx context.Context, workspace string) (backend.Store, error) {
	if err := backend.ValidateWorkspaceName(workspace); err != nil {
		return nil, err
	}
	return b.store(workspace), nil
}

func (b *Backend) store(workspace string) *Store {
	return &Store{b: b, key: b.objectKey(workspace)}
}

// checkBucket reports a bucket that does not exist. A refusal to say
// (credentials allowed only to read and write objects) is not an error.
func (b *Backend) checkBucket(ctx context.Context) error {
	_, err := b.s3.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(b.cfg.Bucket)})
	var nf *s3types.NotFound
	if errors.As(err, &nf) || isNoSuchBucket(err) {
		return fmt.Errorf("the bucket %s does not exist: it must be created before the backend is used", b.cfg.Bucket)
	}
	return nil
}

func isNoSuchBucket(err error) bool {
	var nb *s3types.NoSuchBucket
	var api smithy.APIError
	return errors.As(err, &nb) || (errors.As(err, &api) && api.ErrorCode() == "NoSuchBucket")
}

// bucketError explains a missing bucket.
func bucketError(err error) error {
	if isNoSuchBucket(err) {
		return fmt.Errorf("the bucket does not exist (it must be created before the backend is used): %w", err)
	}
	return err
}
