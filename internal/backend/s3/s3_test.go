package s3

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/backendtest"
	"github.com/rig-iac/rig/internal/backend/s3/s3test"
)

// helperEnv makes the test binary a helper process that locks the default
// workspace of the backend described by the JSON Config in the variable,
// prints "locked", and waits to be killed.
const helperEnv = "RIG_S3_LOCK_HELPER"

func TestMain(m *testing.M) {
	backendtest.ServeLockHelper(helperEnv, runHelper)
	os.Exit(m.Run())
}

func runHelper(spec string) error {
	var cfg Config
	if err := json.Unmarshal([]byte(spec), &cfg); err != nil {
		return err
	}
	b, err := New(context.Background(), cfg)
	if err != nil {
		return err
	}
	s, _ := b.Store(context.Background(), backend.DefaultWorkspace)
	info := backend.NewLockInfo("OperationTypeApply")
	info.Info = "helper"
	if _, err := s.Lock(context.Background(), info); err != nil {
		return err
	}
	return nil
}

// lockKinds are the lock configurations every test runs with.
var lockKinds = []struct {
	name          string
	lockfile, ddb bool
}{
	{"lockfile", true, false},
	{"dynamodb", false, true},
	{"both", true, true},
}

// testConfig returns a Config for the servers, with static credentials
// and nothing looked up on the machine.
func testConfig(s3srv *s3test.S3, ddb *s3test.DynamoDB, lockfile bool) Config {
	cfg := Config{
		Bucket:                    "state",
		Key:                       "team/terraform.tfstate",
		Region:                    "us-east-1",
		Endpoints:                 Endpoints{S3: s3srv.URL},
		UsePathStyle:              true,
		AccessKey:                 "AKIDTEST",
		SecretKey:                 "secret-test-key",
		SkipCredentialsValidation: true,
		SkipMetadataAPICheck:      true,
		UseLockfile:               lockfile,
		MaxRetries:                2,
	}
	if ddb != nil {
		cfg.DynamoDBTable = "locks"
		cfg.Endpoints.DynamoDB = ddb.URL
	}
	return cfg
}

func newTestBackend(t *testing.T, cfg Config) *Backend {
	t.Helper()
	if ps := cfg.Validate(func(string) string { return "" }); len(ps) > 0 {
		t.Fatalf("Validate: %+v", ps)
	}
	b, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	b.consistencyWait, b.consistencyPoll = 300*time.Millisecond, 50*time.Millisecond
	return b
}

func TestConformance(t *testing.T) {
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			backendtest.Run(t, func(t *testing.T) backend.Backend {
				var ddb *s3test.DynamoDB
				if k.ddb {
					ddb = s3test.NewDynamoDB(t, "locks")
				}
				return newTestBackend(t, testConfig(s3test.NewS3(t, "state"), ddb, k.lockfile))
			})
		})
	}
}

// TestLayout checks the keys of the state objects, the lock object and the
// DynamoDB items, as Terraform and OpenTofu name them.
func TestLayout(t *testing.T) {
	ctx := context.Background()
	srv := s3test.NewS3(t, "state")
	ddb := s3test.NewDynamoDB(t, "locks")
	b := newTestBackend(t, testConfig(srv, ddb, true))
	for _, ws := range []string{"default", "dev"} {
		s, _ := b.Store(ctx, ws)
		if err := s.Write(ctx, []byte(`{"ws":"`+ws+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := b.Store(ctx, "dev")
	info := backend.NewLockInfo("OperationTypeApply")
	id, err := s.Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	keys := srv.Keys(t, "state")
	want := []string{"env:/dev/team/terraform.tfstate", "env:/dev/team/terraform.tfstate.tflock", "team/terraform.tfstate"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
	// The lock object and item hold the LockInfo JSON, Path BUCKET/KEY.
	body, _ := srv.Object("state", "env:/dev/team/terraform.tfstate.tflock")
	item := ddb.Item("locks", "state/env:/dev/team/terraform.tfstate")
	for what, data := range map[string]string{"lock object": string(body), "lock item": item["Info"]} {
		var got map[string]any
		if err := json.Unmarshal([]byte(data), &got); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got["ID"] != id || got["Path"] != "state/env:/dev/team/terraform.tfstate" || got["Operation"] != "OperationTypeApply" {
			t.Errorf("%s = %s", what, data)
		}
		for _, k := range []string{"ID", "Operation", "Info", "Who", "Version", "Created", "Path"} {
			if _, ok := got[k]; !ok {
				t.Errorf("%s lacks %s: %s", what, k, data)
			}
		}
	}
	sum := md5.Sum([]byte(`{"ws":"dev"}`))
	if d := ddb.Item("locks", "state/env:/dev/team/terraform.tfstate-md5"); d["Digest"] != hex.EncodeToString(sum[:]) {
		t.Errorf("digest item = %v, want Digest %x", d, sum)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Object("state", "env:/dev/team/terraform.tfstate.tflock"); ok {
		t.Error("the lock object is still there after Unlock")
	}
	if item := ddb.Item("locks", "state/env:/dev/team/terraform.tfstate"); item != nil {
		t.Errorf("the lock item is still there after Unlock: %v", item)
	}
}

// TestWorkspacePrefix: workspaces are listed by prefix, with an empty
// prefix too, and objects that are not states are ignored.
func TestWorkspacePrefix(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		prefix  *string
		objects []string
		want    []string
	}{
		{"default prefix", nil, []string{"env:/a/team/terraform.tfstate", "env:/b/team/terraform.tfstate.tflock", "env:/c/other.tfstate", "env:/d/team/terraform.tfstate.backup", "elsewhere/team/terraform.tfstate"},
			[]string{"a", "b", "default"}},
		{"custom prefix", ptr("workspaces/x"), []string{"workspaces/x/a/team/terraform.tfstate", "env:/b/team/terraform.tfstate"},
			[]string{"a", "default"}},
		{"empty prefix", ptr(""), []string{"a/team/terraform.tfstate", "team/terraform.tfstate", "b/c/team/terraform.tfstate"},
			[]string{"a", "default"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := s3test.NewS3(t, "state")
			cfg := testConfig(srv, nil, true)
			cfg.WorkspaceKeyPrefix = tt.prefix
			b := newTestBackend(t, cfg)
			for _, k := range tt.objects {
				srv.PutObject(t, "state", k, []byte("{}"))
			}
			got, err := b.Workspaces(ctx)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("Workspaces = %q, %v; want %q", got, err, tt.want)
			}
			s, _ := b.Store(ctx, "new")
			if err := s.Write(ctx, []byte("{}")); err != nil {
				t.Fatal(err)
			}
			want := "new/team/terraform.tfstate"
			if p := cfg.WorkspacePrefix(); p != "" {
				want = p + "/" + want
			}
			if _, ok := srv.Object("state", want); !ok {
				t.Errorf("workspace new is not at %s: %q", want, srv.Keys(t, "state"))
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestLockHeldByOpenTofu: a lock object or item as OpenTofu writes it
// excludes rig, which reports its holder; and Unlock with its ID frees it.
func TestLockHeldByOpenTofu(t *testing.T) {
	ctx := context.Background()
	// What OpenTofu 1.10 and Terraform 1.11 put in KEY.tflock and in the
	// item's Info: their LockInfo as JSON.
	tofu := `{"ID":"0b6e4bd5-8c36-8e8a-ad10-5a2d9a1b3c00","Operation":"OperationTypeApply","Info":"","Who":"alice@ci","Version":"1.10.6","Created":"2026-11-25T10:00:00.123456789Z","Path":"state/team/terraform.tfstate"}`
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			srv := s3test.NewS3(t, "state")
			var ddb *s3test.DynamoDB
			if k.ddb {
				ddb = s3test.NewDynamoDB(t, "locks")
			}
			b := newTestBackend(t, testConfig(srv, ddb, k.lockfile))
			if k.lockfile {
				srv.PutObject(t, "state", "team/terraform.tfstate.tflock", []byte(tofu))
			}
			if k.ddb {
				ddb.PutItem("locks", map[string]string{"LockID": "state/team/terraform.tfstate", "Info": tofu})
			}
			s, _ := b.Store(ctx, backend.DefaultWorkspace)
			_, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
			var le *backend.LockError
			if !errors.As(err, &le) || !errors.Is(err, backend.ErrLocked) || le.Info == nil {
				t.Fatalf("Lock = %v, want a LockError with the holder", err)
			}
			if le.Info.Who != "alice@ci" || le.Info.Version != "1.10.6" || le.Info.ID != "0b6e4bd5-8c36-8e8a-ad10-5a2d9a1b3c00" {
				t.Errorf("holder = %+v", le.Info)
			}
			if k.lockfile && k.ddb {
				// The lock object rig took before finding the item taken is released.
				if body, _ := srv.Object("state", "team/terraform.tfstate.tflock"); string(body) != tofu {
					t.Errorf("lock object = %s, want OpenTofu's", body)
				}
			}
			if err := s.Unlock(ctx, "another-id"); err == nil {
				t.Error("Unlock with another ID succeeded")
			}
			if err := s.Unlock(ctx, le.Info.ID); err != nil {
				t.Fatalf("Unlock with the holder's ID: %v", err)
			}
			id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
			if err != nil {
				t.Fatalf("Lock after the unlock: %v", err)
			}
			if err := s.Unlock(ctx, id); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestLockOnlyOneAlsoTaken: with both locks configured, a lock taken only
// in DynamoDB (by a tool configured with just dynamodb_table) still
// excludes, and leaves no lock object behind.
func TestLockBothReleasesObject(t *testing.T) {
	ctx := context.Background()
	srv := s3test.NewS3(t, "state")
	ddb := s3test.NewDynamoDB(t, "locks")
	onlyDDB := newTestBackend(t, testConfig(srv, ddb, false))
	both := newTestBackend(t, testConfig(srv, ddb, true))
	s1, _ := onlyDDB.Store(ctx, backend.DefaultWorkspace)
	id, err := s1.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := both.Store(ctx, backend.DefaultWorkspace)
	var le *backend.LockError
	if _, err := s2.Lock(ctx, backend.NewLockInfo("OperationTypePlan")); !errors.As(err, &le) || le.Info == nil || le.Info.ID != id {
		t.Fatalf("Lock = %v, want the DynamoDB holder's LockError", err)
	}
	if _, ok := srv.Object("state", "team/terraform.tfstate.tflock"); ok {
		t.Error("the lock object was left behind")
	}
	if err := s1.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// TestDigestMismatch: with a DynamoDB table, a state object that does not
// match the recorded digest is an error once the wait runs out; a digest
// that catches up is waited for.
func TestDigestMismatch(t *testing.T) {
	ctx := context.Background()
	srv := s3test.NewS3(t, "state")
	ddb := s3test.NewDynamoDB(t, "locks")
	b := newTestBackend(t, testConfig(srv, ddb, false))
	s, _ := b.Store(ctx, backend.DefaultWorkspace)
	if err := s.Write(ctx, []byte(`{"serial":1}`)); err != nil {
		t.Fatal(err)
	}
	// Another writer's PUT that this replica does not show yet.
	sum := md5.Sum([]byte(`{"serial":2}`))
	ddb.PutItem("locks", map[string]string{"LockID": "state/team/terraform.tfstate-md5", "Digest": hex.EncodeToString(sum[:])})
	if _, err := s.Read(ctx); !errors.Is(err, ErrDigestMismatch) {
		t.Fatalf("Read = %v, want ErrDigestMismatch", err)
	}
	// The replica catches up: the object is the one the digest names.
	plain := newTestBackend(t, testConfig(srv, nil, false))
	go func() {
		time.Sleep(100 * time.Millisecond)
		ps, _ := plain.Store(ctx, backend.DefaultWorkspace)
		_ = ps.Write(ctx, []byte(`{"serial":2}`))
	}()
	b.consistencyWait = 5 * time.Second
	if got, err := s.Read(ctx); err != nil || string(got) != `{"serial":2}` {
		t.Fatalf("Read = %q, %v; want the newer state", got, err)
	}
	// Deleting the workspace removes the digest too.
	other, _ := b.Store(ctx, "gone")
	if err := other.Write(ctx, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteWorkspace(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if d := ddb.Item("locks", "state/env:/gone/team/terraform.tfstate-md5"); d != nil {
		t.Errorf("digest left after DeleteWorkspace: %v", d)
	}
}

// TestWriteRequest: a state PUT carries its Content-MD5 and SHA-256, the
// configured encryption and ACL; skip_s3_checksum leaves the SHA-256 out.
func TestWriteRequest(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		modify func(*Config)
		want   map[string]string // header → value ("*" for any non-empty)
		absent []string
	}{
		{"plain", func(*Config) {}, map[string]string{"Content-Md5": "*", "X-Amz-Checksum-Sha256": "*", "Content-Type": "application/json"},
			[]string{"X-Amz-Server-Side-Encryption", "X-Amz-Acl"}},
		{"encrypt and acl", func(c *Config) { c.Encrypt, c.ACL = true, "bucket-owner-full-control" },
			map[string]string{"X-Amz-Server-Side-Encryption": "AES256", "X-Amz-Acl": "bucket-owner-full-control"}, nil},
		{"kms", func(c *Config) { c.Encrypt, c.KMSKeyID = true, "alias/state" },
			map[string]string{"X-Amz-Server-Side-Encryption": "aws:kms", "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id": "alias/state"}, nil},
		{"customer key", func(c *Config) { c.Encrypt, c.SSECustomerKey = true, "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" },
			map[string]string{"X-Amz-Server-Side-Encryption-Customer-Algorithm": "AES256",
				"X-Amz-Server-Side-Encryption-Customer-Key":     "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
				"X-Amz-Server-Side-Encryption-Customer-Key-Md5": "*"}, []string{"X-Amz-Server-Side-Encryption"}},
		{"skip checksum", func(c *Config) { c.SkipS3Checksum = true }, map[string]string{"Content-Md5": "*"},
			[]string{"X-Amz-Checksum-Sha256"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := s3test.NewS3(t, "state")
			cfg := testConfig(srv, nil, false)
			tt.modify(&cfg)
			b := newTestBackend(t, cfg)
			srv.RecordHeaders()
			s, _ := b.Store(ctx, backend.DefaultWorkspace)
			if err := s.Write(ctx, []byte(`{"version":4}`)); err != nil {
				t.Fatal(err)
			}
			hs := srv.Headers()
			if len(hs) != 1 {
				t.Fatalf("%d PUT requests, want 1", len(hs))
			}
			for k, v := range tt.want {
				if got := hs[0].Get(k); got == "" || (v != "*" && got != v) {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			for _, k := range tt.absent {
				if got := hs[0].Get(k); got != "" {
					t.Errorf("%s = %q, want none", k, got)
				}
			}
		})
	}
}

// TestWriteFailure: a PUT the server fails is retried (max_retries), and
// when every attempt fails Write returns an error and the old state stays.
func TestWriteFailure(t *testing.T) {
	ctx := context.Background()
	srv := s3test.NewS3(t, "state")
	b := newTestBackend(t, testConfig(srv, nil, false))
	s, _ := b.Store(ctx, backend.DefaultWorkspace)
	if err := s.Write(ctx, []byte("old")); err != nil {
		t.Fatal(err)
	}
	srv.FailPuts(1)
	if err := s.Write(ctx, []byte("retried")); err != nil {
		t.Fatalf("Write after one failure: %v", err)
	}
	srv.FailPuts(2) // max_retries = 2 attempts
	if err := s.Write(ctx, []byte("lost")); err == nil {
		t.Fatal("Write succeeded while every attempt failed")
	}
	if got, err := s.Read(ctx); err != nil || string(got) != "retried" {
		t.Errorf("Read = %q, %v; want the last state written", got, err)
	}
}

// TestMissingBucket: New fails on a bucket that does not exist, naming it.
func TestMissingBucket(t *testing.T) {
	srv := s3test.NewS3(t)
	_, err := New(context.Background(), testConfig(srv, nil, true))
	if err == nil || !strings.Contains(err.Error(), "bucket state does not exist") {
		t.Errorf("New = %v, want the missing bucket named", err)
	}
}

// TestMissingTable: New fails when the DynamoDB table does not exist.
func TestMissingTable(t *testing.T) {
	srv := s3test.NewS3(t, "state")
	ddb := s3test.NewDynamoDB(t, "other")
	_, err := New(context.Background(), testConfig(srv, ddb, false))
	if err == nil || !strings.Contains(err.Error(), "locks") {
		t.Errorf("New = %v, want the missing table named", err)
	}
}

// TestLockHolderKilled: a process killed while it holds the lock leaves it
// held (S3 and DynamoDB do not know the process), reported with the
// holder's information, until it is unlocked with its ID.
func TestLockHolderKilled(t *testing.T) {
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			srv := s3test.NewS3(t, "state")
			var ddb *s3test.DynamoDB
			if k.ddb {
				ddb = s3test.NewDynamoDB(t, "locks")
			}
			cfg := testConfig(srv, ddb, k.lockfile)
			spec, _ := json.Marshal(cfg)
			backendtest.StartLockHelper(t, helperEnv, string(spec))() // locks, then dies
			b := newTestBackend(t, cfg)
			s, _ := b.Store(ctx, backend.DefaultWorkspace)
			_, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
			var le *backend.LockError
			if !errors.As(err, &le) || le.Info == nil || le.Info.Info != "helper" {
				t.Fatalf("Lock = %v, want the dead helper's lock", err)
			}
			if err := s.Unlock(ctx, le.Info.ID); err != nil {
				t.Fatalf("Unlock with the helper's ID: %v", err)
			}
			id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
			if err != nil {
				t.Fatal(err)
			}
			_ = s.Unlock(ctx, id)
		})
	}
}

// TestConcurrentWriters: writers in parallel, each with its own backend
// (as separate machines would be), take the lock, read the state, and
// write it back incremented; with the lock no increment is lost.
func TestConcurrentWriters(t *testing.T) {
	const writers, rounds = 6, 5
	for _, k := range lockKinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			srv := s3test.NewS3(t, "state")
			var ddb *s3test.DynamoDB
			if k.ddb {
				ddb = s3test.NewDynamoDB(t, "locks")
			}
			errs := make(chan error, writers)
			for w := range writers {
				b := newTestBackend(t, testConfig(srv, ddb, k.lockfile))
				go func() {
					s, _ := b.Store(ctx, backend.DefaultWorkspace)
					for range rounds {
						info := backend.NewLockInfo("OperationTypeApply")
						info.Info = fmt.Sprint("writer ", w)
						id, err := backend.LockWithTimeout(ctx, s, info, time.Minute)
						if err != nil {
							errs <- err
							return
						}
						data, err := s.Read(ctx)
						n := 0
						if err == nil && data != nil {
							_, err = fmt.Sscan(string(data), &n)
						}
						if err == nil {
							err = s.Write(ctx, []byte(fmt.Sprint(n+1)))
						}
						if uerr := s.Unlock(ctx, id); err == nil {
							err = uerr
						}
						if err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			for range writers {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			s, _ := newTestBackend(t, testConfig(srv, ddb, k.lockfile)).Store(ctx, backend.DefaultWorkspace)
			if got, err := s.Read(ctx); err != nil || string(got) != fmt.Sprint(writers*rounds) {
				t.Errorf("final state %q, %v; want %d increments", got, err, writers*rounds)
			}
		})
	}
}
