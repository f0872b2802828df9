package cloud

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestObjectsRoundTrip(t *testing.T) {
	srv := NewServer(Config{})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	c := NewClient(ts.URL)
	ctx := context.Background()

	o, err := c.Create(ctx, Object{Name: "a", Value: "1", Tags: map[string]string{"k": "v"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Object{ID: o.ID, Name: "a", Value: "1", Tags: map[string]string{"k": "v"}, Revision: 1}, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if got, err = c.Update(ctx, Object{ID: o.ID, Name: "b", Value: "2"}); err != nil || got.Revision != 2 || got.Name != "b" {
		t.Errorf("update: %+v, %v; want revision 2 named b", got, err)
	}
	if got, err = c.FindByName(ctx, "b"); err != nil || got.ID != o.ID {
		t.Errorf("find by name: %+v, %v", got, err)
	}
	if err := c.Delete(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, o.ID); !IsNotFound(err) {
		t.Errorf("reading a deleted object: %v, want not found", err)
	}
	st := srv.Stats()
	want := map[string]int64{"CreateObject": 1, "GetObject": 2, "UpdateObject": 1, "FindObject": 1, "DeleteObject": 1}
	if diff := cmp.Diff(want, st.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// TestThrottling runs more calls at once than the bucket admits: the
// refused calls are answered with a throttling error, which the client
// retries until it gives up.
func TestThrottling(t *testing.T) {
	srv := NewServer(Config{Rate: 1, Burst: 2, ThrottleDelay: time.Millisecond})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	c := NewClient(ts.URL)
	c.MaxRetries, c.BackoffBase, c.BackoffCap = 2, time.Millisecond, time.Millisecond
	ctx := context.Background()

	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Go(func() { _, errs[i] = c.Create(ctx, Object{Name: "x"}) })
	}
	wg.Wait()
	failed := 0
	for _, err := range errs {
		if err != nil {
			if !IsThrottling(err) {
				t.Fatalf("unexpected error %v", err)
			}
			failed++
		}
	}
	if failed != 3 {
		t.Errorf("%d of 5 calls failed, want the 3 the bucket of 2 could not admit", failed)
	}
	st := srv.Stats()
	if st.Calls["CreateObject"] != 2+3*3 || st.Throttled["CreateObject"] != 3*3 {
		t.Errorf("calls %v throttled %v; want 11 calls of which 9 throttled (3 calls, 3 attempts each)", st.Calls, st.Throttled)
	}
	if c.Retries() != 6 {
		t.Errorf("client retried %d times, want 6", c.Retries())
	}
	var e *APIError
	for _, err := range errs {
		if err != nil {
			e = err.(*APIError)
		}
	}
	if want := "CreateObject: ThrottlingException: Rate exceeded (HTTP 429), given up after 3 attempts"; e.Error() != want {
		t.Errorf("error %q, want %q", e.Error(), want)
	}
}

func TestDrift(t *testing.T) {
	srv := NewServer(Config{})
	for i := range 1000 {
		srv.store.create(Object{Name: string(rune('a'+i%26)) + "x", Value: "v"})
	}
	d, err := ParseDrift("0.1,deleted=0.05,seed=7")
	if err != nil {
		t.Fatal(err)
	}
	res := srv.Drift(d)
	if res.Changed < 70 || res.Changed > 130 || res.Deleted < 25 || res.Deleted > 75 {
		t.Errorf("drift of 10%% changed, 5%% deleted of 1,000 objects: %+v", res)
	}
	if again := srv.Drift(d); !again.Skipped || again.Changed != 0 {
		t.Errorf("the same drift key again: %+v, want skipped", again)
	}
	drifted := 0
	for _, o := range srv.store.objects {
		if o.Value == "v~drift" && o.Revision == 2 {
			drifted++
		}
	}
	if drifted != res.Changed || srv.store.len() != 1000-res.Deleted {
		t.Errorf("%d objects drifted, %d left; drift said %+v", drifted, srv.store.len(), res)
	}
	for _, bad := range []string{"x", "0.5,deleted=0.6", "0.1,colour=red"} {
		if _, err := ParseDrift(bad); err == nil {
			t.Errorf("ParseDrift(%q) accepted", bad)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	srv := NewServer(Config{})
	a := srv.store.create(Object{Name: "a"})
	path := t.TempDir() + "/objects.json"
	if err := srv.Save(path); err != nil {
		t.Fatal(err)
	}
	again := NewServer(Config{})
	if err := again.Load(path); err != nil {
		t.Fatal(err)
	}
	if o, ok := again.store.get(a.ID); !ok || o.Name != "a" {
		t.Errorf("loaded %+v %v", o, ok)
	}
	if b := again.store.create(Object{Name: "b"}); b.ID == a.ID {
		t.Errorf("a new object reused ID %s", a.ID)
	}
}
