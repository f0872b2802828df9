package s3

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dyntypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/rig-iac/rig/internal/backend"
)

// Lock implements backend.Store: it takes the lock object (use_lockfile),
// then the DynamoDB item (dynamodb_table), releasing the object if the item
// is held. Either held by someone else is a *backend.LockError with the
// holder's LockInfo as recorded there. With neither configured the state
// is not locked and Lock returns the ID at once.
func (s *Store) Lock(ctx context.Context, info backend.LockInfo) (string, error) {
	if info.ID == "" {
		info.ID = backend.NewLockInfo(info.Operation).ID
	}
	info.Path = s.Path()
	body, err := json.Marshal(info)
	if err != nil {
		return "", err
	}
	if s.b.cfg.UseLockfile {
		if err := s.lockObject(ctx, body); err != nil {
			return "", err
		}
	}
	if s.b.dyn != nil {
		if err := s.lockItem(ctx, body); err != nil {
			if s.b.cfg.UseLockfile {
				if uerr := s.unlockObject(ctx, info.ID); uerr != nil {
					err = errors.Join(err, fmt.Errorf("releasing the lock object again: %w", uerr))
				}
			}
			return "", err
		}
	}
	return info.ID, nil
}

// Unlock implements backend.Store: it releases both locks if the lock ID
// recorded in each is id. It tries both even when one fails.
func (s *Store) Unlock(ctx context.Context, id string) error {
	var errs []error
	if s.b.cfg.UseLockfile {
		if err := s.unlockObject(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	if s.b.dyn != nil {
		if err := s.unlockItem(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("unlocking s3://%s: %w", s.Path(), errors.Join(errs...))
	}
	return nil
}

func (s *Store) lockKey() string { return s.key + LockFileSuffix }

// lockObject creates KEY.tflock holding body, if it does not exist.
func (s *Store) lockObject(ctx context.Context, body []byte) error {
	in := &s3.PutObjectInput{
		Bucket:      aws.String(s.b.cfg.Bucket),
		Key:         aws.String(s.lockKey()),
		ContentType: aws.String("application/json"),
		IfNoneMatch: aws.String("*"),
	}
	err := s.b.put(ctx, in, body)
	if err == nil {
		return nil
	}
	if !isConditionFailed(err) {
		return fmt.Errorf("locking s3://%s: creating %s: %w", s.Path(), s.lockKey(), bucketError(err))
	}
	holder, _, herr := s.objectHolder(ctx)
	lerr := &backend.LockError{Info: holder, Err: backend.ErrLocked}
	if herr != nil {
		lerr.Err = fmt.Errorf("%w (the lock object %s could not be read: %v)", backend.ErrLocked, s.lockKey(), herr)
	}
	return lerr
}

// objectHolder reads the lock object: its LockInfo and ETag.
func (s *Store) objectHolder(ctx context.Context) (*backend.LockInfo, string, error) {
	in := &s3.GetObjectInput{Bucket: aws.String(s.b.cfg.Bucket), Key: aws.String(s.lockKey())}
	s.b.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	out, err := s.b.s3.GetObject(ctx, in)
	if err != nil {
		return nil, "", err
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, "", err
	}
	var info backend.LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, "", fmt.Errorf("the lock object %s does not hold lock information: %w", s.lockKey(), err)
	}
	return &info, aws.ToString(out.ETag), nil
}

// unlockObject deletes KEY.tflock if it records lock id; the delete is
// conditional on the object being the one read.
func (s *Store) unlockObject(ctx context.Context, id string) error {
	holder, etag, err := s.objectHolder(ctx)
	if isNotFound(err) {
		return fmt.Errorf("the lock object %s does not exist: the state is not locked", s.lockKey())
	}
	if err != nil {
		return fmt.Errorf("reading the lock object %s: %w", s.lockKey(), err)
	}
	if holder.ID != id {
		return &backend.LockError{Info: holder, Err: fmt.Errorf("lock ID %q does not match the held lock %q", id, holder.ID)}
	}
	in := &s3.DeleteObjectInput{Bucket: aws.String(s.b.cfg.Bucket), Key: aws.String(s.lockKey())}
	if etag != "" {
		in.IfMatch = aws.String(etag)
	}
	if _, err := s.b.s3.DeleteObject(ctx, in); err != nil {
		return fmt.Errorf("deleting the lock object %s: %w", s.lockKey(), err)
	}
	return nil
}

// lockItem puts the lock item BUCKET/KEY if there is none.
func (s *Store) lockItem(ctx context.Context, body []byte) error {
	_, err := s.b.dyn.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.b.cfg.DynamoDBTable),
		Item: map[string]dyntypes.AttributeValue{
			"LockID": &dyntypes.AttributeValueMemberS{Value: s.Path()},
			"Info":   &dyntypes.AttributeValueMemberS{Value: string(body)},
		},
		ConditionExpression: aws.String("attribute_not_exists(LockID)"),
	})
	if err == nil {
		return nil
	}
	var ccf *dyntypes.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return fmt.Errorf("locking s3://%s: putting the lock item in DynamoDB table %s: %w", s.Path(), s.b.cfg.DynamoDBTable, err)
	}
	holder, _, herr := s.itemHolder(ctx)
	lerr := &backend.LockError{Info: holder, Err: backend.ErrLocked}
	if herr != nil {
		lerr.Err = fmt.Errorf("%w (the lock item could not be read: %v)", backend.ErrLocked, herr)
	}
	return lerr
}

// itemHolder reads the lock item: its LockInfo and the Info as stored.
func (s *Store) itemHolder(ctx context.Context) (*backend.LockInfo, string, error) {
	out, err := s.b.dyn.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            aws.String(s.b.cfg.DynamoDBTable),
		Key:                  map[string]dyntypes.AttributeValue{"LockID": &dyntypes.AttributeValueMemberS{Value: s.Path()}},
		ProjectionExpression: aws.String("LockID, Info"),
		ConsistentRead:       aws.Bool(true),
	})
	if err != nil {
		return nil, "", err
	}
	if len(out.Item) == 0 {
		return nil, "", errNoItem
	}
	v, _ := out.Item["Info"].(*dyntypes.AttributeValueMemberS)
	if v == nil {
		return nil, "", errors.New("the lock item has no Info")
	}
	var info backend.LockInfo
	if err := json.Unmarshal([]byte(v.Value), &info); err != nil {
		return nil, "", fmt.Errorf("the lock item's Info is not lock information: %w", err)
	}
	return &info, v.Value, nil
}

var errNoItem = errors.New("there is no lock item: the state is not locked")

// unlockItem deletes the lock item if it records lock id, on the condition
// that its Info is still the one read.
func (s *Store) unlockItem(ctx context.Context, id string) error {
	holder, raw, err := s.itemHolder(ctx)
	if err != nil {
		return fmt.Errorf("reading the lock item of DynamoDB table %s: %w", s.b.cfg.DynamoDBTable, err)
	}
	if holder.ID != id {
		return &backend.LockError{Info: holder, Err: fmt.Errorf("lock ID %q does not match the held lock %q", id, holder.ID)}
	}
	_, err = s.b.dyn.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(s.b.cfg.DynamoDBTable),
		Key:                       map[string]dyntypes.AttributeValue{"LockID": &dyntypes.AttributeValueMemberS{Value: s.Path()}},
		ConditionExpression:       aws.String("Info = :info"),
		ExpressionAttributeValues: map[string]dyntypes.AttributeValue{":info": &dyntypes.AttributeValueMemberS{Value: raw}},
	})
	if err != nil {
		return fmt.Errorf("deleting the lock item of DynamoDB table %s: %w", s.b.cfg.DynamoDBTable, err)
	}
	return nil
}

// checkTable reports a DynamoDB table that does not exist.
func (b *Backend) checkTable(ctx context.Context) error {
	_, err := b.dyn.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(b.cfg.DynamoDBTable)})
	if err != nil {
		return fmt.Errorf("checking DynamoDB table %s: %w", b.cfg.DynamoDBTable, err)
	}
	return nil
}

// isConditionFailed reports a conditional PUT refused because the object
// exists (412), or because a concurrent conditional write won (409).
func isConditionFailed(err error) bool {
	var api smithy.APIError
	if !errors.As(err, &api) {
		return false
	}
	switch api.ErrorCode() {
	case "PreconditionFailed", "ConditionalRequestConflict":
		return true
	}
	return false
}
