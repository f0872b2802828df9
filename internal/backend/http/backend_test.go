package http

import (
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	nethttp "net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/backendtest"
	"github.com/rig-iac/rig/internal/backend/http/stateserver"
)

// helperEnv makes the test binary a helper process that locks the state at
// the URL it names, prints "locked", and waits to be killed.
const helperEnv = "RIG_HTTP_LOCK_HELPER"

func TestMain(m *testing.M) {
	backendtest.ServeLockHelper(helperEnv, runHelper)
	os.Exit(m.Run())
}

func runHelper(addr string) error {
	b, err := New(Config{Address: addr, LockAddress: addr, UnlockAddress: addr})
	if err != nil {
		return err
	}
	s, err := b.Store(context.Background(), backend.DefaultWorkspace)
	if err != nil {
		return err
	}
	info := backend.NewLockInfo("OperationTypeApply")
	info.Info = "helper"
	if _, err := s.Lock(context.Background(), info); err != nil {
		return err
	}
	return nil
}

// noSleep records the waits between retries instead of sleeping.
type noSleep struct{ waits []time.Duration }

func (n *noSleep) sleep(_ context.Context, d time.Duration) error {
	n.waits = append(n.waits, d)
	return nil
}

// config is a Config for the state at path on srv, with locking, that
// does not sleep between retries.
func config(srv *stateserver.Server, path string) Config {
	addr := srv.URL + path
	return Config{
		Address: addr, LockAddress: addr, UnlockAddress: addr,
		RetryMax: DefaultRetryMax, RetryWaitMin: DefaultRetryWaitMin, RetryWaitMax: DefaultRetryWaitMax,
		Sleep: (&noSleep{}).sleep,
	}
}

func newBackend(t *testing.T, cfg Config) *Backend {
	t.Helper()
	b, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return b
}

func openStore(t *testing.T, b *Backend) *Store {
	t.Helper()
	s, err := b.Store(context.Background(), backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*Store)
}

func TestConformance(t *testing.T) {
	opts := backendtest.Options{SingleWorkspace: true}
	t.Run("plain", func(t *testing.T) {
		backendtest.RunWith(t, opts, func(t *testing.T) backend.Backend {
			return newBackend(t, config(stateserver.Start(t, stateserver.Options{}), "/state/conformance"))
		})
	})
	t.Run("GitLab's lock address and methods", func(t *testing.T) {
		backendtest.RunWith(t, opts, func(t *testing.T) backend.Backend {
			srv := stateserver.Start(t, stateserver.Options{})
			cfg := config(srv, "/api/v4/projects/1/terraform/state/prod")
			cfg.LockAddress = cfg.Address + "/lock"
			cfg.UnlockAddress = cfg.LockAddress
			cfg.LockMethod, cfg.UnlockMethod = "POST", "DELETE"
			return newBackend(t, cfg)
		})
	})
	t.Run("TLS with a client certificate and basic auth", func(t *testing.T) {
		backendtest.RunWith(t, opts, func(t *testing.T) backend.Backend {
			srv := stateserver.Start(t, stateserver.Options{TLS: true, Username: "ci", Password: "s3cret-pw"})
			cfg := config(srv, "/state/conformance")
			cfg.Username, cfg.Password = "ci", "s3cret-pw"
			cfg.ClientCACertificatePEM, cfg.ClientCertificatePEM, cfg.ClientPrivateKeyPEM = srv.CA, srv.ClientCert, srv.ClientKey
			return newBackend(t, cfg)
		})
	})
}

// TestRequests checks what goes over the wire, request by request.
func TestRequests(t *testing.T) {
	ctx := context.Background()
	srv := stateserver.Start(t, stateserver.Options{})
	cfg := config(srv, "/state/a")
	cfg.UpdateMethod = "PUT"
	cfg.Headers = map[string]string{"X-Team": "infra"}
	s := openStore(t, newBackend(t, cfg))

	if data, err := s.Read(ctx); data != nil || err != nil {
		t.Fatalf("Read of no state = %q, %v; want nil, nil", data, err)
	}
	info := backend.NewLockInfo("OperationTypeApply")
	id, err := s.Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, []byte(`{"version":4}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, []byte(`{"version":4,"serial":2}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, nil); err != nil {
		t.Fatal(err)
	}

	type req struct{ Method, Query, MD5, Team, Body string }
	sum := func(s string) string { h := md5.Sum([]byte(s)); return base64.StdEncoding.EncodeToString(h[:]) }
	lockBody := fmt.Sprintf(`{"ID":%q,"Operation":"OperationTypeApply","Info":"","Who":%q,"Version":%q,"Created":%q,"Path":%q}`,
		id, info.Who, info.Version, info.Created.Format(time.RFC3339Nano), srv.URL+"/state/a")
	want := []req{
		{Method: "GET", Team: "infra"},
		{Method: "LOCK", MD5: sum(lockBody), Team: "infra", Body: lockBody},
		{Method: "PUT", Query: "ID=" + id, MD5: sum(`{"version":4}`), Team: "infra", Body: `{"version":4}`},
		{Method: "UNLOCK", MD5: sum(lockBody), Team: "infra", Body: lockBody},
		{Method: "PUT", MD5: sum(`{"version":4,"serial":2}`), Team: "infra", Body: `{"version":4,"serial":2}`},
		{Method: "DELETE", Team: "infra"},
	}
	var got []req
	for _, r := range srv.Requests() {
		if r.Path != "/state/a" {
			t.Errorf("%s to %s, want /state/a", r.Method, r.Path)
		}
		if r.Header.Get("Content-MD5") != "" && r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s has Content-Type %q", r.Method, r.Header.Get("Content-Type"))
		}
		got = append(got, req{r.Method, r.Query, r.Header.Get("Content-MD5"), r.Header.Get("X-Team"), string(r.Body)})
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("requests (-want +got):\n%s", d)
	}
	if srv.State("/state/a") != nil {
		t.Errorf("the state is still there after writing an empty one")
	}
}

// TestReadAnswers: what each answer to the GET means.
func TestReadAnswers(t *testing.T) {
	tests := []struct {
		name    string
		handler func(w nethttp.ResponseWriter)
		want    string
		wantErr string
	}{
		{"200 with a body", func(w nethttp.ResponseWriter) { fmt.Fprint(w, `{"version":4}`) }, `{"version":4}`, ""},
		{"200 without a body", func(w nethttp.ResponseWriter) {}, "", ""},
		{"204", func(w nethttp.ResponseWriter) { w.WriteHeader(204) }, "", ""},
		{"404", func(w nethttp.ResponseWriter) { w.WriteHeader(404) }, "", ""},
		{"401", func(w nethttp.ResponseWriter) { w.WriteHeader(401) }, "", "get state: HTTP remote state endpoint requires auth"},
		{"403", func(w nethttp.ResponseWriter) { w.WriteHeader(403) }, "", "get state: HTTP remote state endpoint invalid auth"},
		{"418", func(w nethttp.ResponseWriter) { w.WriteHeader(418) }, "", "get state: unexpected HTTP response code 418"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startFunc(t, func(w nethttp.ResponseWriter, r *nethttp.Request) { tt.handler(w) })
			got, err := openStore(t, newBackend(t, Config{Address: srv})).Read(context.Background())
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("Read = %q, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want || (tt.want == "" && got != nil) {
				t.Fatalf("Read = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestLockHeldByTerraform: a lock another client took (here the lock
// information Terraform 1.11.4 writes) is a LockError carrying it.
func TestLockHeldByTerraform(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	tfInfo, err := os.ReadFile("../testdata/terraform-1.11.4.lock.info")
	if err != nil {
		t.Fatal(err)
	}
	if !srv.Lock("/state/a", tfInfo) {
		t.Fatal("could not lock")
	}
	s := openStore(t, newBackend(t, config(srv, "/state/a")))
	_, err = s.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	var le *backend.LockError
	if !errors.As(err, &le) || !errors.Is(err, backend.ErrLocked) || le.Info == nil {
		t.Fatalf("Lock = %v, want a LockError with the holder's info", err)
	}
	want := backend.LockInfo{ID: "6d384548-ba5d-bca5-2f4c-7177264de875", Operation: "OperationTypeApply", Who: "root@vm", Version: "1.11.4",
		Created: time.Date(2026, 11, 22, 1, 2, 33, 978901044, time.UTC), Path: "terraform.tfstate"}
	if d := cmp.Diff(want, *le.Info); d != "" {
		t.Errorf("holder (-want +got):\n%s", d)
	}
	if !strings.Contains(err.Error(), "423 Locked") {
		t.Errorf("error %q does not say what the server answered", err)
	}
	// Writing without the lock is refused by the server.
	if err := s.Write(context.Background(), []byte("{}")); err == nil || !strings.Contains(err.Error(), "409") {
		t.Errorf("Write under someone else's lock = %v, want the server's 409", err)
	}
}

// TestNoLockAddress: without lock_address there is no locking, and nothing
// is sent to lock or unlock; without unlock_address Unlock sends nothing.
func TestNoLockAddress(t *testing.T) {
	ctx := context.Background()
	srv := stateserver.Start(t, stateserver.Options{})
	for _, cfg := range []Config{{Address: srv.URL + "/s"}, {Address: srv.URL + "/s", UnlockAddress: srv.URL + "/s"}} {
		s1, s2 := openStore(t, newBackend(t, cfg)), openStore(t, newBackend(t, cfg))
		id1, err1 := s1.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
		id2, err2 := s2.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
		if err1 != nil || err2 != nil || id1 == "" || id2 == "" {
			t.Fatalf("Lock = %q, %v and %q, %v; want two ids", id1, err1, id2, err2)
		}
		if err := s1.Unlock(ctx, id1); err != nil {
			t.Fatal(err)
		}
		if err := s1.Write(ctx, []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range srv.Requests() {
		if r.Method != "POST" || r.Query != "" {
			t.Errorf("unexpected request %s ?%s", r.Method, r.Query)
		}
	}
	cfg := Config{Address: srv.URL + "/s", LockAddress: srv.URL + "/s"}
	s := openStore(t, newBackend(t, cfg))
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if srv.LockInfo("/s") == nil {
		t.Error("without unlock_address, Unlock released the lock on the server")
	}
}

// TestKilledHolderKeepsLock: a lock on the server outlives the process
// that took it; its information is reported, and unlocking by its ID (what
// force-unlock does) from another process releases it.
func TestKilledHolderKeepsLock(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	addr := srv.URL + "/state/k"
	backendtest.StartLockHelper(t, helperEnv, addr)() // locks, then dies

	ctx := context.Background()
	s := openStore(t, newBackend(t, config(srv, "/state/k")))
	_, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	var le *backend.LockError
	if !errors.As(err, &le) || le.Info == nil || le.Info.Info != "helper" || le.Info.Operation != "OperationTypeApply" || le.Info.Path != addr {
		t.Fatalf("Lock after the holder died = %v, want the helper's LockError", err)
	}
	if err := s.Unlock(ctx, "not-the-id"); err == nil {
		t.Fatal("Unlock with another ID released the lock")
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
}

// startFunc serves handler on loopback and returns its URL.
func startFunc(t *testing.T, handler nethttp.HandlerFunc) string {
	t.Helper()
	srv := httptestServer(handler)
	t.Cleanup(srv.Close)
	return srv.URL + "/state"
}
