package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dyntypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/parallel"
)

// Store is one workspace's state object and its locks. It keeps nothing
// between calls: the lock lives in S3 (or DynamoDB), so any Store value of
// the workspace, in any process, that is given the lock ID can release it.
type Store struct {
	b       *Backend
	key     string // the state object's key
	journal *objectJournal
}

var _ backend.Store = (*Store)(nil)

// ErrDigestMismatch: the state object does not match the MD5 digest
// recorded in DynamoDB, even after waiting for S3 to catch up.
var ErrDigestMismatch = errors.New("the state in S3 does not have the digest recorded in DynamoDB")

// Path implements backend.Store: BUCKET/KEY, as Terraform records it in
// lock information.
func (s *Store) Path() string { return s.b.cfg.Bucket + "/" + s.key }

// Read implements backend.Store. An empty object reads as no state. With a
// DynamoDB table, an object that does not match the recorded digest is
// read again until it does or the wait runs out (ErrDigestMismatch).
func (s *Store) Read(ctx context.Context) ([]byte, error) {
	deadline := time.Now().Add(s.b.consistencyWait)
	for {
		data, err := s.get(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading s3://%s: %w", s.Path(), err)
		}
		want, err := s.digest(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading the digest of s3://%s: %w", s.Path(), err)
		}
		var got []byte
		if data != nil {
			sum := md5.Sum(data)
			got = sum[:]
		}
		if want == nil || bytes.Equal(want, got) {
			return data, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("reading s3://%s: %w: the object's MD5 is %x, DynamoDB's item %s%s says %x; if S3 is not just slow, set the Digest of that item to %x",
				s.Path(), ErrDigestMismatch, got, s.Path(), DigestSuffix, want, got)
		}
		if err := parallel.Sleep(ctx, s.b.consistencyPoll); err != nil {
			return nil, err
		}
	}
}

// get returns the object's content, nil when there is none (or it is
// empty).
func (s *Store) get(ctx context.Context) ([]byte, error) {
	in := &s3.GetObjectInput{Bucket: aws.String(s.b.cfg.Bucket), Key: aws.String(s.key)}
	s.b.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	out, err := s.b.s3.GetObject(ctx, in)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, bucketError(err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, nil
	}
	return data, nil
}

// exists reports whether the state object exists.
func (s *Store) exists(ctx context.Context) (bool, error) {
	in := &s3.HeadObjectInput{Bucket: aws.String(s.b.cfg.Bucket), Key: aws.String(s.key)}
	s.b.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	_, err := s.b.s3.HeadObject(ctx, in)
	if isNotFound(err) {
		return false, nil
	}
	return err == nil, bucketError(err)
}

// Write implements backend.Store: one PUT of the whole object, carrying
// its MD5 (and SHA-256 unless skip_s3_checksum) so that S3 stores exactly
// these bytes or fails; then, with a DynamoDB table, the digest item.
func (s *Store) Write(ctx context.Context, data []byte) error {
	in := &s3.PutObjectInput{
		Bucket:      aws.String(s.b.cfg.Bucket),
		Key:         aws.String(s.key),
		ContentType: aws.String("application/json"),
	}
	if err := s.b.put(ctx, in, data); err != nil {
		return fmt.Errorf("writing s3://%s: %w", s.Path(), bucketError(err))
	}
	if s.b.dyn == nil {
		return nil
	}
	sum := md5.Sum(data)
	_, err := s.b.dyn.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.b.cfg.DynamoDBTable),
		Item: map[string]dyntypes.AttributeValue{
			"LockID": &dyntypes.AttributeValueMemberS{Value: s.Path() + DigestSuffix},
			"Digest": &dyntypes.AttributeValueMemberS{Value: hex.EncodeToString(sum[:])},
		},
	})
	if err != nil {
		return fmt.Errorf("writing s3://%s: the state is written, but recording its digest in DynamoDB table %s failed (reads will report a mismatch): %w", s.Path(), s.b.cfg.DynamoDBTable, err)
	}
	return nil
}

// put uploads data with the checksums, encryption and ACL configured; in
// may carry conditions.
func (b *Backend) put(ctx context.Context, in *s3.PutObjectInput, data []byte) error {
	in.Body = bytes.NewReader(data)
	in.ContentLength = aws.Int64(int64(len(data)))
	sum := md5.Sum(data)
	in.ContentMD5 = aws.String(base64.StdEncoding.EncodeToString(sum[:]))
	if !b.cfg.SkipS3Checksum {
		// Given precomputed, the checksum goes in a header rather than a
		// trailer, which S3-compatible stores understand more widely.
		sha := sha256.Sum256(data)
		in.ChecksumAlgorithm = s3types.ChecksumAlgorithmSha256
		in.ChecksumSHA256 = aws.String(base64.StdEncoding.EncodeToString(sha[:]))
	}
	switch {
	case b.cfg.SSECustomerKey != "":
		b.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	case b.cfg.Encrypt && b.cfg.KMSKeyID != "":
		in.ServerSideEncryption = s3types.ServerSideEncryptionAwsKms
		in.SSEKMSKeyId = aws.String(b.cfg.KMSKeyID)
	case b.cfg.Encrypt:
		in.ServerSideEncryption = s3types.ServerSideEncryptionAes256
	}
	if b.cfg.ACL != "" {
		in.ACL = s3types.ObjectCannedACL(b.cfg.ACL)
	}
	_, err := b.s3.PutObject(ctx, in)
	return err
}

// customerKey fills in a request's SSE-C fields when a customer key is
// configured.
func (b *Backend) customerKey(algorithm, key, keyMD5 **string) {
	k := b.cfg.SSECustomerKey
	if k == "" {
		return
	}
	raw, _ := base64.StdEncoding.DecodeString(k) // Validate checked it
	sum := md5.Sum(raw)
	*algorithm = aws.String("AES256")
	*key = aws.String(k)
	*keyMD5 = aws.String(base64.StdEncoding.EncodeToString(sum[:]))
}

// digest returns the MD5 recorded in DynamoDB for the state, nil when
// there is no table or no (valid) digest.
func (s *Store) digest(ctx context.Context) ([]byte, error) {
	if s.b.dyn == nil {
		return nil, nil
	}
	out, err := s.b.dyn.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            aws.String(s.b.cfg.DynamoDBTable),
		Key:                  map[string]dyntypes.AttributeValue{"LockID": &dyntypes.AttributeValueMemberS{Value: s.Path() + DigestSuffix}},
		ProjectionExpression: aws.String("LockID, Digest"),
		ConsistentRead:       aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	v, _ := out.Item["Digest"].(*dyntypes.AttributeValueMemberS)
	if v == nil {
		return nil, nil
	}
	sum, err := hex.DecodeString(v.Value)
	if err != nil || len(sum) != md5.Size {
		return nil, nil
	}
	return sum, nil
}

func (s *Store) deleteDigest(ctx context.Context) error {
	_, err := s.b.dyn.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.b.cfg.DynamoDBTable),
		Key:       map[string]dyntypes.AttributeValue{"LockID": &dyntypes.AttributeValueMemberS{Value: s.Path() + DigestSuffix}},
	})
	return err
}

// isNotFound reports a missing object.
func isNotFound(err error) bool {
	var nk *s3types.NoSuchKey
	var nf *s3types.NotFound
	var api smithy.APIError
	return errors.As(err, &nk) || errors.As(err, &nf) || (errors.As(err, &api) && (api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound"))
}
