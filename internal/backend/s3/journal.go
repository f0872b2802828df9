package s3

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/rig-iac/rig/internal/backend"
)

// Journal object names: the head KEY.tfjournal names the snapshot the
// journal belongs to and its generation; the records of generation G are
// the objects KEY.tfjournal.d/G/NNNNNNNNNN, numbered from 1 in the order
// they were appended. Terraform and OpenTofu ignore these objects.
const (
	journalHeadSuffix    = ".tfjournal"
	journalRecordsSuffix = ".tfjournal.d/"
	journalFormat        = 1
)

// journalHead is the head object's JSON.
type journalHead struct {
	Journal    int    `json:"rig_state_journal"`
	Lineage    string `json:"lineage"`
	Serial     uint64 `json:"serial"`
	Generation string `json:"generation"`
}

// Journal implements backend.Store: objects beside the state object, one
// per record, each acknowledged by S3 before Append returns. Begin starts
// a new generation by replacing the head in one PUT, so the records of an
// earlier journal are unreachable at once; they are deleted after it (and
// by Discard), and ones a failed deletion leaves are deleted by the next
// Begin or Discard.
func (s *Store) Journal() backend.Journal {
	if s.journal == nil {
		s.journal = &objectJournal{s: s}
	}
	return s.journal
}

// objectJournal is a Store's journal. gen and next describe the journal
// this value is appending to; gen is "" until Begin or a first Append
// reads the head.
type objectJournal struct {
	s    *Store
	gen  string
	next int
}

func (j *objectJournal) headKey() string    { return j.s.key + journalHeadSuffix }
func (j *objectJournal) recordsKey() string { return j.s.key + journalRecordsSuffix }

func (j *objectJournal) recordKey(gen string, n int) string {
	return fmt.Sprintf("%s%s/%010d", j.recordsKey(), gen, n)
}

// Begin implements backend.Journal.
func (j *objectJournal) Begin(ctx context.Context, lineage string, serial uint64) error {
	gen := backend.NewLockInfo("").ID
	head, err := json.Marshal(journalHead{Journal: journalFormat, Lineage: lineage, Serial: serial, Generation: gen})
	if err != nil {
		return err
	}
	in := &s3.PutObjectInput{Bucket: aws.String(j.s.b.cfg.Bucket), Key: aws.String(j.headKey()), ContentType: aws.String("application/json")}
	if err := j.s.b.put(ctx, in, head); err != nil {
		return fmt.Errorf("starting the state journal s3://%s/%s: %w", j.s.b.cfg.Bucket, j.headKey(), err)
	}
	j.gen, j.next = gen, 1
	j.sweep(ctx, gen)
	return nil
}

// Append implements backend.Journal.
func (j *objectJournal) Append(ctx context.Context, record []byte) error {
	if j.gen == "" {
		head, err := j.head(ctx)
		if err != nil {
			return err
		}
		if head == nil {
			return fmt.Errorf("appending to the state journal s3://%s/%s: no journal was begun", j.s.b.cfg.Bucket, j.headKey())
		}
		keys, err := j.list(ctx, j.recordsKey()+head.Generation+"/")
		if err != nil {
			return err
		}
		j.gen, j.next = head.Generation, len(keys)+1
	}
	key := j.recordKey(j.gen, j.next)
	in := &s3.PutObjectInput{Bucket: aws.String(j.s.b.cfg.Bucket), Key: aws.String(key), ContentType: aws.String("application/octet-stream")}
	if err := j.s.b.put(ctx, in, record); err != nil {
		return fmt.Errorf("appending to the state journal s3://%s/%s: %w", j.s.b.cfg.Bucket, key, err)
	}
	j.next++
	return nil
}

// Load implements backend.Journal: the head, then the records of its
// generation in order.
func (j *objectJournal) Load(ctx context.Context) (*backend.JournalContent, error) {
	head, err := j.head(ctx)
	if err != nil || head == nil {
		return nil, err
	}
	keys, err := j.list(ctx, j.recordsKey()+head.Generation+"/")
	if err != nil {
		return nil, err
	}
	c := &backend.JournalContent{Lineage: head.Lineage, Serial: head.Serial, Records: [][]byte{}}
	for i, key := range keys {
		// Records are numbered from 1 without gaps: a gap is a record
		// whose Append did not return, and nothing after it is loaded.
		if n, err := strconv.Atoi(key[strings.LastIndexByte(key, '/')+1:]); err != nil || n != i+1 {
			break
		}
		data, err := j.get(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("reading the state journal record s3://%s/%s: %w", j.s.b.cfg.Bucket, key, err)
		}
		c.Records = append(c.Records, data)
	}
	return c, nil
}

// Discard implements backend.Journal.
func (j *objectJournal) Discard(ctx context.Context) error {
	_, err := j.s.b.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(j.s.b.cfg.Bucket), Key: aws.String(j.headKey())})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("discarding the state journal s3://%s/%s: %w", j.s.b.cfg.Bucket, j.headKey(), err)
	}
	j.gen = ""
	j.sweep(ctx, "")
	return nil
}

// sweep deletes the records of every generation but keep. The records are
// unreachable already: a failure leaves them for the next sweep.
func (j *objectJournal) sweep(ctx context.Context, keep string) {
	keys, err := j.list(ctx, j.recordsKey())
	if err != nil {
		return
	}
	for _, key := range keys {
		if keep != "" && strings.HasPrefix(key, j.recordsKey()+keep+"/") {
			continue
		}
		_, _ = j.s.b.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(j.s.b.cfg.Bucket), Key: aws.String(key)})
	}
}

// head reads the head object, nil when there is none.
func (j *objectJournal) head(ctx context.Context) (*journalHead, error) {
	data, err := j.get(ctx, j.headKey())
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state journal s3://%s/%s: %w", j.s.b.cfg.Bucket, j.headKey(), bucketError(err))
	}
	var h journalHead
	if err := json.Unmarshal(data, &h); err != nil || h.Journal != journalFormat || h.Generation == "" {
		return nil, fmt.Errorf("reading the state journal s3://%s/%s: not a journal head of format %d", j.s.b.cfg.Bucket, j.headKey(), journalFormat)
	}
	return &h, nil
}

// get reads an object whole.
func (j *objectJournal) get(ctx context.Context, key string) ([]byte, error) {
	in := &s3.GetObjectInput{Bucket: aws.String(j.s.b.cfg.Bucket), Key: aws.String(key)}
	j.s.b.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	out, err := j.s.b.s3.GetObject(ctx, in)
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

// list returns the keys under prefix, in order.
func (j *objectJournal) list(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(j.s.b.s3, &s3.ListObjectsV2Input{Bucket: aws.String(j.s.b.cfg.Bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing s3://%s/%s: %w", j.s.b.cfg.Bucket, prefix, bucketError(err))
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}
