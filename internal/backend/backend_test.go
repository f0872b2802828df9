package backend

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestLockInfoJSON reads the lock-info file Terraform 1.11.4 wrote while it
// held a lock, and writes it back identically.
func TestLockInfoJSON(t *testing.T) {
	want, err := os.ReadFile("testdata/terraform-1.11.4.lock.info")
	if err != nil {
		t.Fatal(err)
	}
	var info LockInfo
	if err := json.Unmarshal(want, &info); err != nil {
		t.Fatal(err)
	}
	if info.ID != "6d384548-ba5d-bca5-2f4c-7177264de875" || info.Who != "root@vm" || info.Created.Nanosecond() != 978901044 {
		t.Errorf("decoded %+v", info)
	}
	got, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Marshal = %s\nwant      %s", got, want)
	}
}

// TestLockErrorMessage compares the message with Terraform's Lock Info block.
func TestLockErrorMessage(t *testing.T) {
	data, _ := os.ReadFile("testdata/terraform-1.11.4.lock.info")
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/lockerror.golden")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  *LockError
		want string
	}{
		{"with info", &LockError{Info: &info, Err: ErrLocked}, strings.TrimSuffix(string(want), "\n")},
		{"without info", &LockError{Err: ErrLocked}, "acquiring the state lock: the state is locked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
			if !errors.Is(tt.err, ErrLocked) {
				t.Error("errors.Is(err, ErrLocked) is false")
			}
		})
	}
}

func TestNewLockInfo(t *testing.T) {
	a, b := NewLockInfo("OperationTypePlan"), NewLockInfo("OperationTypePlan")
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if !uuid.MatchString(a.ID) || a.ID == b.ID {
		t.Errorf("IDs %q, %q: want distinct random UUIDs", a.ID, b.ID)
	}
	if a.Operation != "OperationTypePlan" || !strings.Contains(a.Who, "@") || a.Version == "" {
		t.Errorf("NewLockInfo = %+v", a)
	}
	if a.Created.Location() != time.UTC || time.Since(a.Created) > time.Minute {
		t.Errorf("Created = %v, want now in UTC", a.Created)
	}
}

func TestValidateWorkspaceName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"default", true}, {"prod-eu_1", true}, {"a.b", true}, {"~x", true},
		{"", false}, {".", false}, {"..", false}, {"a/b", false}, {"a b", false}, {"a%b", false}, {"a?b", false}, {"é", false},
	}
	for _, tt := range tests {
		if err := ValidateWorkspaceName(tt.name); (err == nil) != tt.ok {
			t.Errorf("ValidateWorkspaceName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

// fakeStore fails Lock with the errors it is given, in turn.
type fakeStore struct {
	Store
	errs  []error
	calls int
}

func (f *fakeStore) Lock(ctx context.Context, info LockInfo) (string, error) {
	f.calls++
	if len(f.errs) == 0 {
		return info.ID, nil
	}
	err := f.errs[0]
	f.errs = f.errs[1:]
	return "", err
}

func TestLockWithTimeoutErrors(t *testing.T) {
	held := &LockError{Info: &LockInfo{ID: "held"}, Err: ErrLocked}
	broken := errors.New("disk on fire")
	tests := []struct {
		name      string
		errs      []error
		timeout   time.Duration
		wantErr   error
		wantCalls int
	}{
		{"free", nil, 0, nil, 1},
		{"held, no timeout", []error{held}, 0, held, 1},
		{"held then free", []error{held, held}, 10 * time.Second, nil, 3},
		{"other error stops at once", []error{broken}, 10 * time.Second, broken, 1},
		{"other error while waiting", []error{held, broken}, 10 * time.Second, broken, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeStore{errs: tt.errs}
			id, err := LockWithTimeout(context.Background(), s, LockInfo{ID: "mine"}, tt.timeout)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if err == nil && id != "mine" {
				t.Errorf("id = %q", id)
			}
			if s.calls != tt.wantCalls {
				t.Errorf("%d Lock calls, want %d", s.calls, tt.wantCalls)
			}
		})
	}
}

// fakeClock is a lockClock whose waits pass at once, moving its time on
// by the wait, but for those begun after ctx (when set) has ended, which
// never pass.
type fakeClock struct {
	now time.Time
	ctx context.Context
}

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	if c.ctx == nil || c.ctx.Err() == nil {
		c.now = c.now.Add(d)
		ch <- c.now
	}
	return ch
}

// clockedStore is a fakeStore that notes, by clock, when each Lock call
// came.
type clockedStore struct {
	fakeStore
	clock *fakeClock
	start time.Time
	at    []time.Duration
}

func (s *clockedStore) Lock(ctx context.Context, info LockInfo) (string, error) {
	s.at = append(s.at, s.clock.now.Sub(s.start))
	return s.fakeStore.Lock(ctx, info)
}

// TestLockWithTimeoutBackoff: the waits between tries start at 50ms and
// double, but never exceed a second; the last is cut to end at the
// deadline, where a last try finds the lock still held.
func TestLockWithTimeoutBackoff(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var ds []time.Duration
		for _, n := range ns {
			ds = append(ds, time.Duration(n)*time.Millisecond)
		}
		return ds
	}
	tests := []struct {
		name    string
		timeout time.Duration
		want    []time.Duration // when each try came
	}{
		{"doubling, cut at the deadline", 2500 * time.Millisecond, ms(0, 50, 150, 350, 750, 1550, 2500)},
		{"at most a second", 5 * time.Second, ms(0, 50, 150, 350, 750, 1550, 2550, 3550, 4550, 5000)},
		{"a deadline before the first wait ends", 30 * time.Millisecond, ms(0, 30)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			held := &LockError{Err: ErrLocked}
			clock := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
			s := &clockedStore{clock: clock, start: clock.now}
			for range 20 {
				s.errs = append(s.errs, held)
			}
			_, err := lockWithTimeout(context.Background(), s, LockInfo{ID: "x"}, tt.timeout, clock)
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("err = %v, want the LockError", err)
			}
			if diff := cmp.Diff(tt.want, s.at); diff != "" {
				t.Errorf("tries at (-want +got):\n%s", diff)
			}
			if waited := clock.now.Sub(s.start); waited != tt.timeout {
				t.Errorf("gave up after %s, want %s", waited, tt.timeout)
			}
		})
	}
}

// TestLockWithTimeoutCancelled: a context that ends while rig waits stops
// the waiting at once, with the context's error and the holder's.
func TestLockWithTimeoutCancelled(t *testing.T) {
	held := &LockError{Err: ErrLocked}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ctx: ctx}
	s := &clockedStore{clock: clock, start: clock.now, fakeStore: fakeStore{errs: []error{held, held, held}}}
	cancelling := &cancelOnLock{Store: s, after: 2, cancel: cancel}
	_, err := lockWithTimeout(ctx, cancelling, LockInfo{ID: "x"}, time.Minute, clock)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrLocked) {
		t.Errorf("err = %v, want the cancellation and the LockError", err)
	}
	if diff := cmp.Diff([]time.Duration{0, 50 * time.Millisecond}, s.at); diff != "" {
		t.Errorf("tries at (-want +got):\n%s", diff)
	}
}

// cancelOnLock calls cancel once its store has been asked for the lock
// after times.
type cancelOnLock struct {
	Store
	after  int
	cancel context.CancelFunc
}

func (c *cancelOnLock) Lock(ctx context.Context, info LockInfo) (string, error) {
	id, err := c.Store.Lock(ctx, info)
	if c.after--; c.after == 0 {
		c.cancel()
	}
	return id, err
}
