package command

import (
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/s3/s3test"
	"github.com/rig-iac/rig/internal/command/commandtest"
)

// s3Target is a bucket on a loopback S3 server, with a DynamoDB server,
// for one test's s3 backend: commandtest.S3Target under this package's
// names.
type s3Target struct {
	srv      *s3test.S3
	ddb      *s3test.DynamoDB
	lockfile bool // use_lockfile
	dynamo   bool // dynamodb_table
}

const (
	s3TestKey    = commandtest.S3Key
	s3TestSecret = commandtest.S3Secret
)

func newS3Target(t *testing.T, lockfile, dynamo bool) s3Target {
	t.Helper()
	p := commandtest.NewS3Target(t, lockfile, dynamo)
	return s3Target{srv: p.Srv, ddb: p.DDB, lockfile: p.Lockfile, dynamo: p.Dynamo}
}

func (p s3Target) shared() commandtest.S3Target {
	return commandtest.S3Target{Srv: p.srv, DDB: p.ddb, Lockfile: p.lockfile, Dynamo: p.dynamo}
}

// settings are the backend block's attributes.
func (p s3Target) settings() string { return p.shared().Settings() }

// block is the terraform block selecting this target.
func (p s3Target) block() string { return p.shared().Block() }

func (p s3Target) store(t *testing.T, ws string) backend.Store {
	t.Helper()
	return p.shared().Store(t, ws)
}

// object returns a workspace's state object; ok is false when there is none.
func (p s3Target) object(t *testing.T, ws string) (string, bool) {
	t.Helper()
	return p.shared().Object(t, ws)
}

// state parses a workspace's state object.
func (p s3Target) state(t *testing.T, ws string) stateFile {
	t.Helper()
	return p.shared().State(t, ws)
}
