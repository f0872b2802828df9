package ephemeral

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/zclconf/go-cty/cty"
)

// recordingHooks notes every event of the hooks, renewals included.
type recordingHooks struct {
	mu     sync.Mutex
	events []string
}

func (h *recordingHooks) note(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, s)
}

func (h *recordingHooks) PreOpen(a addrs.AbsResourceInstance) { h.note("pre-open " + a.String()) }
func (h *recordingHooks) PostOpen(a addrs.AbsResourceInstance, _ time.Duration, _ bool) {
	h.note("open " + a.String())
}
func (h *recordingHooks) PreClose(a addrs.AbsResourceInstance) { h.note("pre-close " + a.String()) }
func (h *recordingHooks) PostClose(a addrs.AbsResourceInstance, _ time.Duration, _ bool) {
	h.note("close " + a.String())
}
func (h *recordingHooks) PreRenew(a addrs.AbsResourceInstance) { h.note("pre-renew " + a.String()) }
func (h *recordingHooks) PostRenew(a addrs.AbsResourceInstance, _ time.Duration, _ bool) {
	h.note("renew " + a.String())
}

// A Hooks that is also a RenewHooks is told of each renewal, between the
// open and the close.
func TestSetRenewHooks(t *testing.T) {
	p := &fakeProvider{renewEvery: 20 * time.Millisecond}
	h := &recordingHooks{}
	s := NewSet()
	s.Hooks = h
	if _, ds := s.Open(context.Background(), addr("a"), p, "fake_thing", cty.StringVal("a")); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.count("renew a") < 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if ds := s.CloseAll(context.Background()); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	renewals := p.count("renew a")
	want := []string{"pre-open ephemeral.fake_thing.a", "open ephemeral.fake_thing.a"}
	for range renewals {
		want = append(want, "pre-renew ephemeral.fake_thing.a", "renew ephemeral.fake_thing.a")
	}
	want = append(want, "pre-close ephemeral.fake_thing.a", "close ephemeral.fake_thing.a")
	if renewals == 0 || !slices.Equal(h.events, want) {
		t.Errorf("hooks told:\n%v\nwant:\n%v", h.events, want)
	}
}
