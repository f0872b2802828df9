package backendtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend"
)

// Options describe documented limitations of a backend under test.
type Options struct {
	// SingleWorkspace: the backend keeps only the default workspace's
	// state; any other fails with backend.ErrWorkspacesNotSupported.
	SingleWorkspace bool
}

// Run runs the conformance suite as subtests of t. newBackend returns a new,
// empty backend; it is called once per subtest. Lock contention is tested
// between two Store values of that one backend for the same workspace,
// which must exclude each other as two processes would.
func Run(t *testing.T, newBackend func(t *testing.T) backend.Backend) {
	RunWith(t, Options{}, newBackend)
}

// RunWith is Run for a backend with the limitations opts names: the tests
// of what it cannot do are replaced by tests that it refuses it.
func RunWith(t *testing.T, opts Options, newBackend func(t *testing.T) backend.Backend) {
	type test struct {
		name string
		run  func(t *testing.T, b backend.Backend)
	}
	tests := []test{
		{"read before any write is nil", testReadEmpty},
		{"write then read", testWriteRead},
		{"workspaces", testWorkspaces},
		{"invalid workspace names", testInvalidNames},
		{"lock excludes a second store", testLockExclusion},
		{"lock is per workspace", testLockPerWorkspace},
		{"unlock checks the id", testUnlockID},
		{"lock without id gets one", testLockNewID},
		{"lock with timeout waits for release", testLockWithTimeoutWaits},
		{"lock with timeout gives up", testLockWithTimeoutGivesUp},
		{"lock with timeout stops on cancel", testLockWithTimeoutCancel},
		{"concurrent writers under the lock", testConcurrentWriters},
		{"journal", testJournal},
	}
	if opts.SingleWorkspace {
		tests = slices.DeleteFunc(tests, func(tt test) bool {
			return tt.name == "workspaces" || tt.name == "lock is per workspace"
		})
		tests = append(tests, test{"only the default workspace", testSingleWorkspace})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newBackend(t)) })
	}
}

func store(t *testing.T, b backend.Backend, ws string) backend.Store {
	t.Helper()
	s, err := b.Store(context.Background(), ws)
	if err != nil {
		t.Fatalf("Store(%q): %v", ws, err)
	}
	return s
}

func lock(t *testing.T, s backend.Store, op string) (string, backend.LockInfo) {
	t.Helper()
	info := backend.NewLockInfo(op)
	id, err := s.Lock(context.Background(), info)
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	if id != info.ID {
		t.Fatalf("Lock returned id %q, want %q", id, info.ID)
	}
	return id, info
}

// otherWorkspace opens a store of a workspace besides the default one, or
// returns nil when the backend keeps only the default workspace.
func otherWorkspace(t *testing.T, b backend.Backend, ws string) backend.Store {
	t.Helper()
	s, err := b.Store(context.Background(), ws)
	if errors.Is(err, backend.ErrWorkspacesNotSupported) {
		return nil
	}
	if err != nil {
		t.Fatalf("Store(%q): %v", ws, err)
	}
	return s
}

func testReadEmpty(t *testing.T, b backend.Backend) {
	for _, ws := range []string{backend.DefaultWorkspace, "other"} {
		s := otherWorkspace(t, b, ws)
		if s == nil {
			continue
		}
		data, err := s.Read(context.Background())
		if data != nil || err != nil {
			t.Errorf("Read(%s) = %q, %v; want nil, nil", ws, data, err)
		}
	}
}

func testWriteRead(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s := store(t, b, backend.DefaultWorkspace)
	for _, want := range [][]byte{[]byte("first\n"), []byte("second, longer snapshot\n"), []byte("3\n")} {
		in := bytes.Clone(want)
		if err := s.Write(ctx, in); err != nil {
			t.Fatalf("Write: %v", err)
		}
		in[0] = 'X' // the store must not keep the caller's slice
		got, err := s.Read(ctx)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Read = %q, %v; want %q", got, err, want)
		}
		got[0] = 'Y' // nor hand out its own
		if again, _ := store(t, b, backend.DefaultWorkspace).Read(ctx); !bytes.Equal(again, want) {
			t.Fatalf("second Store reads %q, want %q", again, want)
		}
	}
	if other := otherWorkspace(t, b, "other"); other != nil {
		if got, _ := other.Read(ctx); got != nil {
			t.Errorf("workspace other reads %q, want nil", got)
		}
	}
}

// testSingleWorkspace checks a backend that keeps only the default
// workspace: it lists that one, refuses others, and cannot delete it.
func testSingleWorkspace(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	if err := store(t, b, backend.DefaultWorkspace).Write(ctx, []byte("d")); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Workspaces(ctx); err != nil || !slices.Equal(got, []string{"default"}) {
		t.Errorf("Workspaces = %q, %v; want [default]", got, err)
	}
	if _, err := b.Store(ctx, "dev"); !errors.Is(err, backend.ErrWorkspacesNotSupported) {
		t.Errorf("Store(dev) = %v, want ErrWorkspacesNotSupported", err)
	}
	if err := b.DeleteWorkspace(ctx, "default"); !errors.Is(err, backend.ErrDefaultWorkspace) {
		t.Errorf("DeleteWorkspace(default) = %v, want ErrDefaultWorkspace", err)
	}
	if err := b.DeleteWorkspace(ctx, "dev"); !errors.Is(err, backend.ErrWorkspacesNotSupported) {
		t.Errorf("DeleteWorkspace(dev) = %v, want ErrWorkspacesNotSupported", err)
	}
}

// testConcurrentWriters runs writers that each take the lock (waiting for
// it), read a counter, and write it back incremented: with the lock
// excluding them, no increment is lost.
func testConcurrentWriters(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	const writers, rounds = 4, 3
	errs := make(chan error, writers)
	for w := range writers {
		go func() {
			errs <- func() error {
				s, err := b.Store(ctx, backend.DefaultWorkspace)
				if err != nil {
					return err
				}
				for range rounds {
					info := backend.NewLockInfo("OperationTypeApply")
					info.Info = fmt.Sprintf("writer %d", w)
					id, err := backend.LockWithTimeout(ctx, s, info, time.Minute)
					if err != nil {
						return err
					}
					data, err := s.Read(ctx)
					if err != nil {
						return err
					}
					n, _ := strconv.Atoi(string(data))
					if err := s.Write(ctx, []byte(strconv.Itoa(n+1))); err != nil {
						return err
					}
					if err := s.Unlock(ctx, id); err != nil {
						return err
					}
				}
				return nil
			}()
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	got, err := store(t, b, backend.DefaultWorkspace).Read(ctx)
	if err != nil || string(got) != strconv.Itoa(writers*rounds) {
		t.Errorf("counter = %q, %v; want %d", got, err, writers*rounds)
	}
}

func testWorkspaces(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	list := func() []string {
		t.Helper()
		ws, err := b.Workspaces(ctx)
		if err != nil {
			t.Fatalf("Workspaces: %v", err)
		}
		return ws
	}
	if got := list(); !slices.Equal(got, []string{"default"}) {
		t.Fatalf("Workspaces = %q, want [default]", got)
	}
	_ = store(t, b, "unused") // opening a store creates nothing
	if err := store(t, b, "zeta").Write(ctx, []byte("z")); err != nil {
		t.Fatal(err)
	}
	if err := store(t, b, "alpha").Write(ctx, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if got, want := list(), []string{"alpha", "default", "zeta"}; !slices.Equal(got, want) {
		t.Fatalf("Workspaces = %q, want %q", got, want)
	}
	if err := b.DeleteWorkspace(ctx, "default"); !errors.Is(err, backend.ErrDefaultWorkspace) {
		t.Errorf("DeleteWorkspace(default) = %v, want ErrDefaultWorkspace", err)
	}
	if err := b.DeleteWorkspace(ctx, "missing"); !errors.Is(err, backend.ErrWorkspaceNotFound) {
		t.Errorf("DeleteWorkspace(missing) = %v, want ErrWorkspaceNotFound", err)
	}
	if err := b.DeleteWorkspace(ctx, "zeta"); err != nil {
		t.Fatalf("DeleteWorkspace(zeta): %v", err)
	}
	if got, want := list(), []string{"alpha", "default"}; !slices.Equal(got, want) {
		t.Fatalf("after delete, Workspaces = %q, want %q", got, want)
	}
	if got, _ := store(t, b, "zeta").Read(ctx); got != nil {
		t.Errorf("deleted workspace reads %q, want nil", got)
	}
}

func testInvalidNames(t *testing.T, b backend.Backend) {
	for _, name := range []string{"", ".", "..", "a/b", `a\b`, "a b", "a?b"} {
		if _, err := b.Store(context.Background(), name); err == nil {
			t.Errorf("Store(%q) succeeded, want an error", name)
		}
	}
}

func testLockExclusion(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s1, s2 := store(t, b, backend.DefaultWorkspace), store(t, b, backend.DefaultWorkspace)
	id, info := lock(t, s1, "OperationTypeApply")

	for name, s := range map[string]backend.Store{"second store": s2, "same store": s1} {
		_, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
		var le *backend.LockError
		if !errors.As(err, &le) {
			t.Fatalf("%s: Lock while held = %v, want a *LockError", name, err)
		}
		if le.Info == nil || le.Info.ID != id || le.Info.Operation != info.Operation || le.Info.Who != info.Who {
			t.Errorf("%s: LockError.Info = %+v, want the holder's %+v", name, le.Info, info)
		}
	}
	if err := s1.Unlock(ctx, id); err != nil {
		t.Fatalf("Unlock: %v", err)
	}
	id2, _ := lock(t, s2, "OperationTypePlan")
	if err := s2.Unlock(ctx, id2); err != nil {
		t.Fatalf("Unlock: %v", err)
	}
}

func testLockPerWorkspace(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	a, c := store(t, b, "a"), store(t, b, "c")
	ida, _ := lock(t, a, "OperationTypeApply")
	idc, _ := lock(t, c, "OperationTypeApply")
	if err := a.Unlock(ctx, ida); err != nil {
		t.Fatal(err)
	}
	if err := c.Unlock(ctx, idc); err != nil {
		t.Fatal(err)
	}
}

func testUnlockID(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s := store(t, b, backend.DefaultWorkspace)
	if err := s.Unlock(ctx, "nothing-held"); err == nil {
		t.Error("Unlock without a lock succeeded")
	}
	id, _ := lock(t, s, "OperationTypeApply")
	if err := s.Unlock(ctx, "wrong-id"); err == nil {
		t.Error("Unlock with a wrong id succeeded")
	}
	if _, err := store(t, b, backend.DefaultWorkspace).Lock(ctx, backend.NewLockInfo("x")); err == nil {
		t.Fatal("a failed Unlock released the lock")
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatalf("Unlock: %v", err)
	}
}

func testLockNewID(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s := store(t, b, backend.DefaultWorkspace)
	info := backend.NewLockInfo("OperationTypeApply")
	info.ID = ""
	id, err := s.Lock(ctx, info)
	if err != nil || id == "" {
		t.Fatalf("Lock = %q, %v; want a new id", id, err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
}

func testLockWithTimeoutWaits(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s1, s2 := store(t, b, backend.DefaultWorkspace), store(t, b, backend.DefaultWorkspace)
	id, _ := lock(t, s1, "OperationTypeApply")
	released := make(chan error, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		released <- s1.Unlock(ctx, id)
	}()
	start := time.Now()
	id2, err := backend.LockWithTimeout(ctx, s2, backend.NewLockInfo("OperationTypePlan"), 10*time.Second)
	if err != nil {
		t.Fatalf("LockWithTimeout: %v", err)
	}
	if err := <-released; err != nil {
		t.Fatalf("Unlock: %v", err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 5*time.Second {
		t.Errorf("LockWithTimeout took %s, want about 300ms", d)
	}
	if err := s2.Unlock(ctx, id2); err != nil {
		t.Fatal(err)
	}
}

func testLockWithTimeoutGivesUp(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s1, s2 := store(t, b, backend.DefaultWorkspace), store(t, b, backend.DefaultWorkspace)
	id, _ := lock(t, s1, "OperationTypeApply")
	defer s1.Unlock(ctx, id)

	for _, timeout := range []time.Duration{0, 400 * time.Millisecond} {
		start := time.Now()
		_, err := backend.LockWithTimeout(ctx, s2, backend.NewLockInfo("OperationTypePlan"), timeout)
		var le *backend.LockError
		if !errors.As(err, &le) || le.Info == nil || le.Info.ID != id {
			t.Fatalf("timeout %s: err = %v, want the holder's LockError", timeout, err)
		}
		if d := time.Since(start); d < timeout || d > timeout+2*time.Second {
			t.Errorf("timeout %s: gave up after %s", timeout, d)
		}
	}
}

func testLockWithTimeoutCancel(t *testing.T, b backend.Backend) {
	s1, s2 := store(t, b, backend.DefaultWorkspace), store(t, b, backend.DefaultWorkspace)
	id, _ := lock(t, s1, "OperationTypeApply")
	defer s1.Unlock(context.Background(), id)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := backend.LockWithTimeout(ctx, s2, backend.NewLockInfo("OperationTypePlan"), time.Minute)
	var le *backend.LockError
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &le) {
		t.Errorf("err = %v, want the context's error and the LockError", err)
	}
}

// testJournal checks a store's journal, when it keeps one: records come back
// in order with the snapshot they belong to, Begin starts afresh, Discard
// and a new Store value see the same thing, and journals are per workspace.
func testJournal(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	s := store(t, b, "default")
	j := s.Journal()
	if j == nil {
		t.Skip("this store keeps no journal")
	}
	id, _ := lock(t, s, "OperationTypeApply")
	defer s.Unlock(ctx, id)
	if err := s.Write(ctx, []byte(`{"version":4,"serial":3}`)); err != nil {
		t.Fatal(err)
	}
	if c, err := j.Load(ctx); err != nil || c != nil {
		t.Fatalf("Load before Begin = %+v, %v; want nil, nil", c, err)
	}
	if err := j.Begin(ctx, "lin-1", 3); err != nil {
		t.Fatal(err)
	}
	if c, err := j.Load(ctx); err != nil || c == nil || c.Lineage != "lin-1" || c.Serial != 3 || len(c.Records) != 0 {
		t.Fatalf("Load after Begin = %+v, %v; want an empty journal for lin-1 serial 3", c, err)
	}
	recs := [][]byte{[]byte(`{"set":1}`), []byte(`{"set":"x y"}`), bytes.Repeat([]byte("r"), 1<<16)}
	for _, r := range recs {
		if err := j.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// Another Store value of the same workspace (a later run) sees them.
	c, err := store(t, b, "default").Journal().Load(ctx)
	if err != nil || c == nil || c.Lineage != "lin-1" || c.Serial != 3 || !slices.EqualFunc(c.Records, recs, bytes.Equal) {
		t.Fatalf("Load = %+v, %v; want the 3 records appended", c, err)
	}
	if other, err := store(t, b, "other").Journal().Load(ctx); err != nil || other != nil {
		t.Fatalf("another workspace's Load = %+v, %v; want nil, nil", other, err)
	}
	// Begin replaces the journal.
	if err := j.Begin(ctx, "lin-1", 4); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(ctx, []byte("after")); err != nil {
		t.Fatal(err)
	}
	if c, err := j.Load(ctx); err != nil || c == nil || c.Serial != 4 || len(c.Records) != 1 || string(c.Records[0]) != "after" {
		t.Fatalf("Load after a second Begin = %+v, %v", c, err)
	}
	if err := j.Discard(ctx); err != nil {
		t.Fatal(err)
	}
	if c, err := j.Load(ctx); err != nil || c != nil {
		t.Fatalf("Load after Discard = %+v, %v; want nil, nil", c, err)
	}
	if err := j.Discard(ctx); err != nil {
		t.Fatalf("Discard of no journal: %v", err)
	}
	if got, err := s.Read(ctx); err != nil || string(got) != `{"version":4,"serial":3}` {
		t.Fatalf("the snapshot changed: %q, %v", got, err)
	}
}
