package ephemeral

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// fakeProvider opens objects that need renewing every renewEvery, and
// records its calls.
type fakeProvider struct {
	provider.Interface
	renewEvery time.Duration
	mu         sync.Mutex
	calls      []string
}

func (p *fakeProvider) record(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, s)
}

func (p *fakeProvider) ValidateEphemeralResourceConfig(context.Context, string, cty.Value) diag.Diagnostics {
	return nil
}

func (p *fakeProvider) OpenEphemeralResource(_ context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	name := req.Config.AsString()
	p.record("open " + name)
	resp := provider.OpenEphemeralResponse{Result: req.Config, Private: []byte(name)}
	if p.renewEvery > 0 {
		resp.RenewAt = time.Now().Add(p.renewEvery)
	}
	return resp
}

func (p *fakeProvider) RenewEphemeralResource(_ context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	p.record("renew " + string(req.Private))
	return provider.RenewEphemeralResponse{Private: req.Private, RenewAt: time.Now().Add(p.renewEvery)}
}

func (p *fakeProvider) CloseEphemeralResource(_ context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	p.record("close " + string(req.Private))
	return nil
}

func addr(name string) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.Ephemeral, Type: "fake_thing", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModule)
}

func (p *fakeProvider) count(call string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.calls {
		if c == call {
			n++
		}
	}
	return n
}

// TestSetOpensOnceClosesInReverse opens instances (one twice) and closes
// them all, the last opened first, even with the run's context cancelled;
// nothing opens after.
func TestSetOpensOnceClosesInReverse(t *testing.T) {
	p := &fakeProvider{}
	s := NewSet()
	ctx, cancel := context.WithCancel(context.Background())
	for _, n := range []string{"a", "b", "a"} {
		v, ds := s.Open(ctx, addr(n), p, "fake_thing", cty.StringVal(n))
		if ds.HasErrors() || v.AsString() != n {
			t.Fatalf("open %s: %v %v", n, v, ds)
		}
	}
	cancel()
	if ds := s.CloseAll(ctx); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := []string{"open a", "open b", "close b", "close a"}
	if len(p.calls) != len(want) {
		t.Fatalf("calls %v, want %v", p.calls, want)
	}
	for i := range want {
		if p.calls[i] != want[i] {
			t.Fatalf("calls %v, want %v", p.calls, want)
		}
	}
	if _, ds := s.Open(context.Background(), addr("c"), p, "fake_thing", cty.StringVal("c")); !ds.HasErrors() {
		t.Error("opened after CloseAll")
	}
}

// TestSetRenews renews an instance before each renew_at until it is closed.
func TestSetRenews(t *testing.T) {
	p := &fakeProvider{renewEvery: 20 * time.Millisecond}
	s := NewSet()
	if _, ds := s.Open(context.Background(), addr("a"), p, "fake_thing", cty.StringVal("a")); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	// The minute only bounds a set that never renews; on a busy machine
	// the renewals, due every 20 ms, come late.
	deadline := time.Now().Add(time.Minute)
	for p.count("renew a") < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := p.count("renew a"); n < 2 {
		t.Fatalf("renewed %d times, want at least 2", n)
	}
	if ds := s.CloseAll(context.Background()); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	after := p.count("renew a")
	time.Sleep(60 * time.Millisecond)
	if p.count("renew a") != after || p.count("close a") != 1 {
		t.Errorf("renewed after close, or closed %d times: %v", p.count("close a"), p.calls)
	}
}

// TestSetReleases closes the instances of the resources released, the last
// opened first, before CloseAll returns, and the others with CloseAll; a
// released instance opened again is opened anew.
func TestSetReleases(t *testing.T) {
	p := &fakeProvider{}
	s := NewSet()
	ctx := context.Background()
	for _, n := range []string{"a", "b", "c"} {
		if _, ds := s.Open(ctx, addr(n), p, "fake_thing", cty.StringVal(n)); ds.HasErrors() {
			t.Fatal(ds.Err())
		}
	}
	s.Release(ctx, addr("a").ContainingResource().InConfig(), addr("b").ContainingResource().InConfig())
	if got := s.Opened(); len(got) != 1 || got[0] != addr("c") {
		t.Errorf("open after release: %v, want only c", got)
	}
	if _, ds := s.Open(ctx, addr("a"), p, "fake_thing", cty.StringVal("a")); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if ds := s.CloseAll(ctx); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	// The second open of a may come before or after the released ones close.
	if p.count("open a") != 2 || p.count("close a") != 2 || p.count("close b") != 1 || p.count("close c") != 1 {
		t.Fatalf("calls %v", p.calls)
	}
	closeB, closeA := -1, -1
	for i, c := range p.calls {
		if c == "close b" {
			closeB = i
		}
		if c == "close a" && closeA < 0 {
			closeA = i
		}
	}
	if closeB > closeA {
		t.Errorf("a closed before b, which was opened after it: %v", p.calls)
	}
}
