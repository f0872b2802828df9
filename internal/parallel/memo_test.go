package parallel

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestMemoComputesEachKeyOnce(t *testing.T) {
	var m Memo[string, int]
	var computed atomic.Int32
	var firsts atomic.Int32
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			key := []string{"a", "b"}[i%2]
			v, first := m.Do(key, func(v *int) {
				computed.Add(1)
				*v = len(key) * 10
			})
			if first {
				firsts.Add(1)
			}
			if *v != 10 {
				t.Errorf("value of %s = %d, want 10", key, *v)
			}
		})
	}
	wg.Wait()
	if got := computed.Load(); got != 2 {
		t.Errorf("computed %d times, want once per key (2)", got)
	}
	if got := firsts.Load(); got != 2 {
		t.Errorf("%d calls were first, want one per key (2)", got)
	}
}

func TestMemoOtherKeysGoOnWhileOneComputes(t *testing.T) {
	var m Memo[int, int]
	release := make(chan struct{})
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		m.Do(1, func(v *int) { close(started); <-release; *v = 1 })
		close(done)
	}()
	<-started
	if _, ok := m.Computed(1); ok {
		t.Error("Computed(1) is ok while 1 computes")
	}
	if v, first := m.Do(2, func(v *int) { *v = 2 }); *v != 2 || !first {
		t.Errorf("Do(2) = %d, %v while 1 computes; want 2, true", *v, first)
	}
	close(release)
	<-done
	if v, first := m.Do(1, func(*int) { t.Error("computed 1 again") }); *v != 1 || first {
		t.Errorf("Do(1) = %d, %v; want 1, false", *v, first)
	}
	if v, ok := m.Computed(1); !ok || *v != 1 {
		t.Errorf("Computed(1) = %v, %v once computed; want 1, true", v, ok)
	}
	if _, ok := m.Computed(3); ok {
		t.Error("Computed(3) is ok, never asked for")
	}
}

func TestMemoForgetComputesMatchingKeysAnew(t *testing.T) {
	var m Memo[string, int]
	calls := map[string]int{}
	get := func(k string) (int, bool) {
		v, first := m.Do(k, func(v *int) { calls[k]++; *v = calls[k] })
		return *v, first
	}
	get("a")
	get("b")
	old, _ := m.Computed("a")
	m.Forget(func(k string) bool { return k == "a" })
	if _, ok := m.Computed("a"); ok {
		t.Error("Computed(a) is ok after Forget")
	}
	if v, first := get("a"); v != 2 || !first {
		t.Errorf("Do(a) after Forget = %d, %v; want a new value 2, first", v, first)
	}
	if v, first := get("b"); v != 1 || first {
		t.Errorf("Do(b) after forgetting a = %d, %v; want the kept value 1, not first", v, first)
	}
	if *old != 1 {
		t.Errorf("value held before Forget = %d, want it unchanged (1)", *old)
	}
}
