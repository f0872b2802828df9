package command

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/s3"
	"github.com/rig-iac/rig/internal/backend/s3/s3test"
)

// s3Target is a bucket on a loopback S3 server, with a DynamoDB server,
// for one test's s3 backend.
type s3Target struct {
	srv      *s3test.S3
	ddb      *s3test.DynamoDB
	lockfile bool // use_lockfile
	dynamo   bool // dynamodb_table
}

const (
	s3TestKey    = "team/terraform.tfstate"
	s3TestSecret = "s3-test-secret-key-never-printed"
)

func newS3Target(t *testing.T, lockfile, dynamo bool) s3Target {
	t.Helper()
	return s3Target{srv: s3test.NewS3(t, "state"), ddb: s3test.NewDynamoDB(t, "locks"), lockfile: lockfile, dynamo: dynamo}
}

// settings are the backend block's attributes.
func (p s3Target) settings() string {
	s := fmt.Sprintf(`    bucket                      = "state"
    key                         = %q
    region                      = "us-east-1"
    endpoints                   = { s3 = %q, dynamodb = %q }
    use_path_style              = true
    access_key                  = "AKIDTEST"
    secret_key                  = %q
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    max_retries                 = 2
`, s3TestKey, p.srv.URL, p.ddb.URL, s3TestSecret)
	if p.lockfile {
		s += "    use_lockfile                = true\n"
	}
	if p.dynamo {
		s += "    dynamodb_table              = \"locks\"\n"
	}
	return s
}

// block is the terraform block selecting this target.
func (p s3Target) block() string {
	return "terraform {\n  backend \"s3\" {\n" + p.settings() + "  }\n}\n"
}

// backend opens the target as the backend package sees it.
func (p s3Target) backend(t *testing.T) *s3.Backend {
	t.Helper()
	cfg := s3.Config{
		Bucket: "state", Key: s3TestKey, Region: "us-east-1",
		Endpoints:    s3.Endpoints{S3: p.srv.URL, DynamoDB: p.ddb.URL},
		UsePathStyle: true, AccessKey: "AKIDTEST", SecretKey: s3TestSecret,
		SkipCredentialsValidation: true, SkipMetadataAPICheck: true, UseLockfile: p.lockfile,
	}
	if p.dynamo {
		cfg.DynamoDBTable = "locks"
	}
	b, err := s3.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (p s3Target) store(t *testing.T, ws string) backend.Store {
	t.Helper()
	s, err := p.backend(t).Store(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// object returns a workspace's state object; ok is false when there is none.
func (p s3Target) object(t *testing.T, ws string) (string, bool) {
	t.Helper()
	key := s3TestKey
	if ws != backend.DefaultWorkspace {
		key = "env:/" + ws + "/" + s3TestKey
	}
	data, ok := p.srv.Object("state", key)
	return string(data), ok
}

// state parses a workspace's state object.
func (p s3Target) state(t *testing.T, ws string) stateFile {
	t.Helper()
	data, ok := p.object(t, ws)
	if !ok {
		t.Fatalf("no state object for workspace %s", ws)
	}
	var sf stateFile
	if err := json.Unmarshal([]byte(data), &sf); err != nil {
		t.Fatalf("state object is not JSON: %v", err)
	}
	return sf
}
