package commandtest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/s3"
	"github.com/rig-iac/rig/internal/backend/s3/s3test"
)

// S3Target is a bucket on a loopback S3 server, with a DynamoDB server,
// for one test's s3 backend.
type S3Target struct {
	Srv      *s3test.S3
	DDB      *s3test.DynamoDB
	Lockfile bool // use_lockfile
	Dynamo   bool // dynamodb_table
}

const (
	// S3Key is the default workspace's object key in the bucket "state".
	S3Key = "team/terraform.tfstate"
	// S3Secret is the secret key of the target's settings, which no
	// output may show.
	S3Secret = "s3-test-secret-key-never-printed"
)

// NewS3Target starts the servers of a target for the test (stopped when
// it ends): locked with a lock object (lockfile), DynamoDB (dynamo), both
// or neither.
func NewS3Target(t testing.TB, lockfile, dynamo bool) S3Target {
	t.Helper()
	return S3Target{Srv: s3test.NewS3(t, "state"), DDB: s3test.NewDynamoDB(t, "locks"), Lockfile: lockfile, Dynamo: dynamo}
}

// Settings are the backend block's attributes.
func (p S3Target) Settings() string {
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
`, S3Key, p.Srv.URL, p.DDB.URL, S3Secret)
	if p.Lockfile {
		s += "    use_lockfile                = true\n"
	}
	if p.Dynamo {
		s += "    dynamodb_table              = \"locks\"\n"
	}
	return s
}

// Block is the terraform block selecting this target.
func (p S3Target) Block() string {
	return "terraform {\n  backend \"s3\" {\n" + p.Settings() + "  }\n}\n"
}

// Backend opens the target as the backend package sees it.
func (p S3Target) Backend(t testing.TB) *s3.Backend {
	t.Helper()
	cfg := s3.Config{
		Bucket: "state", Key: S3Key, Region: "us-east-1",
		Endpoints:    s3.Endpoints{S3: p.Srv.URL, DynamoDB: p.DDB.URL},
		UsePathStyle: true, AccessKey: "AKIDTEST", SecretKey: S3Secret,
		SkipCredentialsValidation: true, SkipMetadataAPICheck: true, UseLockfile: p.Lockfile,
	}
	if p.Dynamo {
		cfg.DynamoDBTable = "locks"
	}
	b, err := s3.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Store opens a workspace's store, as another process would.
func (p S3Target) Store(t testing.TB, ws string) backend.Store {
	t.Helper()
	s, err := p.Backend(t).Store(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Object returns a workspace's state object; ok is false when there is none.
func (p S3Target) Object(t testing.TB, ws string) (string, bool) {
	t.Helper()
	key := S3Key
	if ws != backend.DefaultWorkspace {
		key = "env:/" + ws + "/" + S3Key
	}
	data, ok := p.Srv.Object("state", key)
	return string(data), ok
}

// State parses a workspace's state object.
func (p S3Target) State(t testing.TB, ws string) StateFile {
	t.Helper()
	data, ok := p.Object(t, ws)
	if !ok {
		t.Fatalf("no state object for workspace %s", ws)
	}
	var sf StateFile
	if err := json.Unmarshal([]byte(data), &sf); err != nil {
		t.Fatalf("state object is not JSON: %v", err)
	}
	return sf
}
