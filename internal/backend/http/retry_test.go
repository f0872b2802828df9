package http

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/http/stateserver"
	"github.com/rig-iac/rig/internal/parallel"
)

// TestRetries: which answers are retried, how often, and how long rig
// waits in between.
func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		fail      []int
		retryMax  int
		waitMin   time.Duration
		waitMax   time.Duration
		wantWaits []time.Duration
		wantErr   string
	}{
		{name: "500 then 200", fail: []int{500}, retryMax: 2, waitMin: time.Second, waitMax: 30 * time.Second,
			wantWaits: []time.Duration{time.Second}},
		{name: "502 503 504 then 200, doubling", fail: []int{502, 503, 504}, retryMax: 3, waitMin: time.Second, waitMax: 30 * time.Second,
			wantWaits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{name: "waits bounded by retry_wait_max", fail: []int{500, 500, 500}, retryMax: 5, waitMin: 2 * time.Second, waitMax: 3 * time.Second,
			wantWaits: []time.Duration{2 * time.Second, 3 * time.Second, 3 * time.Second}},
		{name: "429 retried", fail: []int{429}, retryMax: 1, waitMin: time.Second, waitMax: time.Second,
			wantWaits: []time.Duration{time.Second}},
		{name: "gives up after retry_max retries", fail: []int{500, 500, 500}, retryMax: 2, waitMin: time.Second, waitMax: 30 * time.Second,
			wantWaits: []time.Duration{time.Second, 2 * time.Second},
			wantErr:   "giving up after 3 attempt(s): the last answer was 500 Internal Server Error"},
		{name: "retry_max 0 tries once", fail: []int{503}, retryMax: 0, waitMin: time.Second, waitMax: time.Second,
			wantErr: "giving up after 1 attempt(s)"},
		{name: "501 is not retried", fail: []int{501}, retryMax: 2, waitMin: time.Second, waitMax: time.Second,
			wantErr: "get state: unexpected HTTP response code 501"},
		{name: "400 is not retried", fail: []int{400}, retryMax: 2, waitMin: time.Second, waitMax: time.Second,
			wantErr: "get state: unexpected HTTP response code 400"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := stateserver.Start(t, stateserver.Options{})
			srv.SetState("/s", []byte(`{"version":4}`))
			srv.FailNext(tt.fail...)
			var ns noSleep
			b := newBackend(t, Config{Address: srv.URL + "/s", RetryMax: tt.retryMax, RetryWaitMin: tt.waitMin, RetryWaitMax: tt.waitMax, Sleep: ns.sleep})
			got, err := openStore(t, b).Read(context.Background())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read = %q, %v; want an error with %q", got, err, tt.wantErr)
				}
			} else if err != nil || string(got) != `{"version":4}` {
				t.Fatalf("Read = %q, %v", got, err)
			}
			if d := cmp.Diff(tt.wantWaits, ns.waits); d != "" {
				t.Errorf("waits (-want +got):\n%s", d)
			}
		})
	}
}

// TestRetryWrite: a write answered 500 is sent again whole, and the lock
// and write go through once the server recovers.
func TestRetryWrite(t *testing.T) {
	ctx := context.Background()
	srv := stateserver.Start(t, stateserver.Options{})
	s := openStore(t, newBackend(t, config(srv, "/s")))
	srv.FailNext(500)
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	srv.FailNext(502, 500)
	if err := s.Write(ctx, []byte(`{"serial":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := string(srv.State("/s")); got != `{"serial":1}` {
		t.Errorf("stored %q", got)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// TestRetryConnection: a server that cannot be reached is retried, and the
// error names the address without the password.
func TestRetryConnection(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://ci:hunter2-pw@" + l.Addr().String() + "/s"
	l.Close() // nothing listens there now
	var ns noSleep
	b := newBackend(t, Config{Address: addr, Password: "hunter2-pw", Username: "ci", RetryMax: 2, RetryWaitMin: time.Second, RetryWaitMax: time.Second, Sleep: ns.sleep})
	s := openStore(t, b)
	_, err = s.Read(context.Background())
	if err == nil || !strings.Contains(err.Error(), "giving up after 3 attempt(s)") {
		t.Fatalf("Read = %v, want it to give up after 3 attempts", err)
	}
	if len(ns.waits) != 2 {
		t.Errorf("waited %d times, want 2", len(ns.waits))
	}
	for _, text := range []string{err.Error(), s.Path()} {
		if strings.Contains(text, "hunter2-pw") {
			t.Errorf("the password shows in %q", text)
		}
	}
}

// TestRetryStopsOnCancel: a cancelled context ends the waits.
func TestRetryStopsOnCancel(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{})
	srv.FailNext(500, 500, 500)
	ctx, cancel := context.WithCancel(context.Background())
	b := newBackend(t, Config{Address: srv.URL + "/s", RetryMax: 5, RetryWaitMin: time.Hour, RetryWaitMax: time.Hour,
		Sleep: func(ctx context.Context, d time.Duration) error { cancel(); return parallel.Sleep(ctx, d) }})
	_, err := openStore(t, b).Read(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Read = %v, want the context's error", err)
	}
}
